// The sandbox's onboarding: it explains the shared demo quota before it runs out, shows what is
// left from the RateLimit header, says what to do at 429, keeps a reader's own key for the tab
// only (sessionStorage), and has landmarks, a sensible focus order and a visible focus ring.
// The server runs with a tiny demo quota (3 an hour) so the quota runs out within the test.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, openPage, startHarness, type Harness } from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ RATE_LIMIT_DEMO: '3/3600' });
});
afterAll(async () => {
  await h?.stop();
});

async function openSandbox(context?: BrowserContext) {
  const w = await openPage(h, '/sandbox?op=getSystemStatus', context ? { context } : {});
  await w.page.waitForSelector('#sandbox-form[data-ready="true"]');
  return w;
}

async function run(page: Page) {
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/v1/')),
    page.click('#execute'),
  ]);
  await page.waitForFunction(
    () => document.getElementById('result')?.getAttribute('aria-busy') === 'false',
  );
}

describe('sandbox onboarding', () => {
  it('explains the demo quota, counts it down from RateLimit and says what to do at 429', async () => {
    const w = await openSandbox();
    const { page } = w;
    const explain = (await page.textContent('#quota-explain')) ?? '';
    expect(explain).toContain('DEMO_KEY');
    expect(explain).toContain('429');
    expect(explain.replace(/\s+/g, ' ')).toContain('curl, this sandbox and the API reference');
    expect(await page.locator('#quota-explain a[href="/#get-a-key"]').count()).toBe(1);
    expect(await page.getAttribute('#quota', 'data-state')).toBe('unknown');

    await run(page);
    expect(await page.getAttribute('#quota', 'data-remaining')).toBe('2');
    expect(await page.textContent('[data-testid="quota-left"]')).toBe('2');
    const status = (await page.textContent('#quota-status')) ?? '';
    expect(status).toContain('of 3 calls left');
    expect(status).toContain('demo');
    // Low already (3 is a small quota): the warning comes before the quota runs out.
    expect(await page.getAttribute('#quota', 'data-state')).toBe('low');
    expect(status).toContain('Running low');
    expect(await page.locator('#quota-status a[href="/#get-a-key"]').count()).toBe(1);

    await run(page);
    await run(page);
    expect(await page.getAttribute('#quota', 'data-remaining')).toBe('0');
    await run(page);
    expect(await page.getAttribute('#result-status', 'data-status')).toBe('429');
    expect(await page.getAttribute('#quota', 'data-state')).toBe('exhausted');
    const used = (await page.textContent('#quota-status')) ?? '';
    expect(used).toContain('Quota used up');
    expect(used).toMatch(/resets in \d+ (min|s|h)/);
    expect(used).toContain('paste your own key');
    expectNoConsoleErrors(w, [429]);
    await w.close();
  });

  it('keeps the reader’s own key in this tab only (sessionStorage), never in localStorage', async () => {
    const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const w = await openSandbox(context);
    const { page } = w;
    const key = 'tai_live_0000000000000000000000000000000000ab';
    await page.fill('#api-key', key);
    expect(await page.evaluate(() => sessionStorage.getItem('tai.sandbox.api-key'))).toBe(key);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(key);
    expect(page.url()).not.toContain(key);
    await page.reload();
    await page.waitForSelector('#sandbox-form[data-ready="true"]');
    expect(await page.inputValue('#api-key')).toBe(key);
    // A new tab (a new session) starts with DEMO_KEY.
    const other = await context.newPage();
    await other.goto(`${h.server.url}/sandbox`);
    await other.waitForSelector('#sandbox-form[data-ready="true"]');
    expect(await other.inputValue('#api-key')).toBe('DEMO_KEY');
    expectNoConsoleErrors(w);
    await context.close();
  });

  it('has landmarks, a sensible focus order and a visible focus ring', async () => {
    const w = await openSandbox();
    const { page } = w;
    for (const role of ['banner', 'main', 'contentinfo'] as const)
      expect(await page.getByRole(role).count(), role).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
    expect(await page.locator('h1').count()).toBe(1);
    // The first Tab reaches the skip link, which leads to the main content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#main');
    // Focus order follows the form: operation → … → key → Use DEMO_KEY → Execute.
    const order: string[] = [];
    await page.focus('#endpoint');
    for (let i = 0; i < 12; i++) {
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
      await page.keyboard.press('Tab');
    }
    const at = (id: string) => order.indexOf(id);
    expect(at('endpoint')).toBe(0);
    expect(at('api-key')).toBeGreaterThan(0);
    expect(at('use-demo-key')).toBe(at('api-key') + 1);
    expect(at('execute')).toBe(at('use-demo-key') + 1);
    // The focused control shows a ring (keyboard focus).
    await page.focus('#api-key');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expectNoConsoleErrors(w);
    await w.close();
  });
});
