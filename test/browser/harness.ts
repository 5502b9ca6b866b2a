// Real-browser harness: one Chromium and one built server for a test file, and pages that record
// every request and every console error so each test can assert on them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

export const SCREENSHOTS = path.resolve('test-results', 'screenshots');

export interface Harness {
  server: TestServer;
  browser: Browser;
  stop(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** console.error messages and uncaught exceptions. */
  errors: string[];
  /** console.warn messages. */
  warnings: string[];
  close(): Promise<void>;
}

/**
 * Budget of one browser action (navigation, wait, screenshot). Measured 2026-12-07 on a 2-core
 * machine at a load average of 24, a full-page phone screenshot of /docs/changelog overran 30 s;
 * two minutes hold there. The test budget (vitest.config.ts, browser project) is larger still, so a
 * slow page fails naming the action, not the test.
 */
export const ACTION_TIMEOUT_MS = 120_000;

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  // startServer gives the server a fresh database of its own, so rate-limit windows start empty.
  const [server, browser] = await Promise.all([
    startServer({ LOG_LEVEL: 'warn', ...env }),
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    }),
  ]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    browser,
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

export async function openPage(
  h: Harness,
  pathname: string,
  options: { width?: number; height?: number; context?: BrowserContext } = {},
): Promise<WatchedPage> {
  const context =
    options.context ??
    (await h.browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    }));
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS);
  const requests: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.goto(h.server.url + pathname, { waitUntil: 'load' });
  return {
    page,
    context,
    requests,
    errors,
    warnings,
    close: () => (options.context ? page.close() : context.close()),
  };
}

/** Every request went to our own server (or stayed in the page as data: / blob:). */
export function expectOwnOrigin(h: Harness, w: WatchedPage): void {
  expect(w.requests.length).toBeGreaterThan(0);
  const foreign = w.requests.filter(
    (u) => !u.startsWith(`${h.server.url}/`) && !u.startsWith('data:') && !u.startsWith('blob:'),
  );
  expect(foreign, 'requests that left our origin').toEqual([]);
}

/**
 * No console errors. Chromium logs every 4xx/5xx answer to fetch as "Failed to load resource";
 * tests that provoke an error answer on purpose name the statuses they expect.
 */
export function expectNoConsoleErrors(w: WatchedPage, expectedStatuses: number[] = []): void {
  const unexpected = w.errors.filter((text) => {
    const m = /^Failed to load resource: the server responded with a status of (\d{3})/.exec(text);
    return !(m && expectedStatuses.includes(Number(m[1])));
  });
  expect(unexpected, 'console errors').toEqual([]);
}
