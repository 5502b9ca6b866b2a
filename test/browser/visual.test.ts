// Every page at desktop and phone sizes, in the light and the dark colour scheme: a screenshot of
// each (test-results/screenshots/<page>-<size>-<scheme>.png), axe-core on our own pages failing on
// any serious or critical violation, no sideways scrolling of the page at 390 px, no console error.
// The embedded Scalar reference's own DOM (#app on /docs) is excluded from axe: it is a third-party
// component with violations we cannot fix from here (our frame around it is checked).
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_TIMEOUT_MS,
  SCREENSHOTS,
  expectNoConsoleErrors,
  expectOwnOrigin,
  openPage,
  startHarness,
  type Harness,
} from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

export const PAGES: { path: string; name: string }[] = [
  { path: '/', name: 'landing' },
  { path: '/market', name: 'market' },
  { path: '/mica', name: 'mica' },
  { path: '/docs', name: 'docs' },
  { path: '/sandbox', name: 'sandbox' },
  { path: '/docs/methodology', name: 'methodology' },
  { path: '/docs/data-report', name: 'data-report' },
  { path: '/docs/errors', name: 'errors' },
  { path: '/docs/changelog', name: 'changelog' },
  { path: '/docs/verifying', name: 'verifying' },
];

const SIZES = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core in the page; returns the serious and critical violations, summarised. */
export async function seriousViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  await page.addScriptTag({ path: path.resolve('node_modules/axe-core/axe.min.js') });
  const violations = await page.evaluate(async (excluded) => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    const context = excluded.length ? { exclude: excluded.map((s) => [s]) } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations;
  }, exclude);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`,
          )
          .join('; ')}`,
    );
}

async function settle(page: Page, pathname: string): Promise<void> {
  if (pathname === '/docs') {
    await page
      .getByText('List tokenized assets and series', { exact: true })
      .first()
      .waitFor({ state: 'visible', timeout: ACTION_TIMEOUT_MS });
  }
  if (pathname === '/sandbox') await page.waitForSelector('#sandbox-form[data-ready="true"]');
  await page.waitForLoadState('networkidle');
}

// One test per page, size and scheme (40), so each has its own budget on a loaded machine; the
// pages of one size and scheme share a browser context, opened once.
for (const scheme of SCHEMES) {
  for (const size of SIZES) {
    describe(`${size.name} ${scheme}`, () => {
      let context: BrowserContext;
      beforeAll(async () => {
        context = await h.browser.newContext({
          viewport: { width: size.width, height: size.height },
          colorScheme: scheme,
          // axe-core is injected as a script tag; the pages' CSP (script-src 'self') would refuse it.
          bypassCSP: true,
        });
      });
      afterAll(async () => {
        await context?.close();
      });

      for (const p of PAGES) {
        it(`${p.path}: screenshot, axe, no sideways scrolling, no console error`, async () => {
          const problems: string[] = [];
          const w = await openPage(h, p.path, { context });
          try {
            const { page } = w;
            await settle(page, p.path);
            expect(
              await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
            ).toBe(scheme === 'dark');
            await page.screenshot({
              path: path.join(SCREENSHOTS, `${p.name}-${size.name}-${scheme}.png`),
              fullPage: true,
            });
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            if (overflow > 0)
              problems.push(`${p.path} scrolls sideways by ${overflow} px at ${size.width} px`);
            const found = await seriousViolations(page, p.path === '/docs' ? ['#app'] : []);
            problems.push(...found.map((f) => `${p.path} (${scheme}, ${size.name}): ${f}`));
            expectOwnOrigin(h, w);
            expectNoConsoleErrors(w);
          } finally {
            await w.close();
          }
          expect(problems).toEqual([]);
        });
      }
    });
  }
}
