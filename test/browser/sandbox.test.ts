// The sandbox in a real browser against the built server: live calls to the five operations, the
// call counter, problem details, the shareable address, where the key is kept, keyboard use and a
// phone-sized screen.
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/artifact.ts';
import {
  SCREENSHOTS,
  expectNoConsoleErrors,
  expectOwnOrigin,
  openPage,
  startHarness,
  type Harness,
} from './harness.ts';

let h: Harness;
const dataset = readDataset();
const tfin = dataset.registry.rows.find((a) => a.tfin.startsWith('TFIN-FUND'))!.tfin;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function openSandbox(query = '', options: { width?: number; height?: number } = {}) {
  const w = await openPage(h, `/sandbox${query}`, options);
  await w.page.waitForSelector('#sandbox-form[data-ready="true"]');
  return w;
}

/** Clicks Execute (or runs `trigger`) and waits until the answer is laid out. */
async function execute(page: Page, trigger?: () => Promise<void>): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/v1/')),
    trigger ? trigger() : page.click('#execute'),
  ]);
  await page.waitForFunction(
    () =>
      document.getElementById('result')?.getAttribute('aria-busy') === 'false' &&
      document.getElementById('result-content')?.hidden === false,
  );
  return response;
}

async function shown(page: Page) {
  const raw = (await page.textContent('#result-raw')) ?? '';
  return {
    status: Number(await page.getAttribute('#result-status', 'data-status')),
    statusText: (await page.textContent('#result-status')) ?? '',
    ms: Number(await page.getAttribute('#result-time', 'data-ms')),
    body: JSON.parse(raw) as Record<string, unknown>,
    header: async (name: string) =>
      (await page.textContent(`#result-headers tr[data-header="${name.toLowerCase()}"] td + td`)) ??
      '',
  };
}

type Body = { data: Record<string, unknown> & Record<string, unknown>[]; meta: unknown };

describe('sandbox', () => {
  it('executes each of the five operations live and renders status, time, headers and body', async () => {
    const w = await openSandbox();
    const { page } = w;
    const cases: {
      op: string;
      fill?: Record<string, string>;
      check: (body: Body) => void;
    }[] = [
      {
        op: 'listRegistryAssets',
        fill: { asset_class: 'FUND' },
        check: (b) => {
          expect(b.data.length).toBeGreaterThan(0);
          expect(String(b.data[0]!['tfin'])).toMatch(/^TFIN-FUND-/);
        },
      },
      { op: 'getRegistryAsset', check: (b) => expect(b.data['tfin']).toBe(tfin) },
      {
        op: 'getStablecoinMarket',
        fill: { peg_currency: 'EUR' },
        check: (b) => expect(b.data['dominance']).toHaveProperty('overall'),
      },
      {
        op: 'getMicaStatus',
        fill: { member_state: 'DE' },
        check: (b) =>
          expect((b.data['member_states'] as { iso: string }[]).map((s) => s.iso)).toEqual(['DE']),
      },
      {
        op: 'getSystemStatus',
        check: (b) => expect(['ok', 'degraded']).toContain(b.data['status']),
      },
    ];
    for (const c of cases) {
      await page.selectOption('#endpoint', c.op);
      if (c.op === 'getRegistryAsset') await page.fill('#param-tfin', tfin);
      for (const [name, value] of Object.entries(c.fill ?? {})) {
        const tag = await page.$eval(`#param-${name}`, (e) => e.tagName);
        if (tag === 'SELECT') await page.selectOption(`#param-${name}`, value);
        else await page.fill(`#param-${name}`, value);
      }
      const response = await execute(page);
      expect(response.request().headers()['x-api-key']).toBe('DEMO_KEY');
      const r = await shown(page);
      expect(r.status, `${c.op}: ${r.statusText}`).toBe(200);
      expect(r.statusText).toBe('200 OK');
      expect(r.ms).toBeGreaterThanOrEqual(0);
      expect(await page.textContent('#result-time')).toMatch(/^\d+ ms$/);
      expect(await r.header('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await r.header('Cache-Control')).not.toBe('not sent');
      expect(r.body).toHaveProperty('meta');
      c.check(r.body as Body);
      // The collapsible tree shows the same body.
      expect(await page.isVisible('#result-tree details[open] > summary')).toBe(true);
      expect(await page.textContent('#result-tree')).toContain('"api_version"');
      expect(await page.isHidden('#result-problem')).toBe(true);
    }
    expect(await page.textContent('#call-count')).toBe(String(cases.length));
    await page.selectOption('#endpoint', 'getRegistryAsset');
    await page.fill('#param-tfin', tfin);
    await execute(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'sandbox.png'), fullPage: true });
    expectOwnOrigin(h, w);
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('counts calls per session: 0 on a new session, N after N calls, errors included', async () => {
    const w = await openSandbox('?op=getRegistryAsset');
    const { page } = w;
    expect(await page.textContent('#call-count')).toBe('0');
    await execute(page);
    await page.fill('#param-tfin', 'TFIN-FUND-ETH-1999-0999');
    await execute(page); // 404 asset_not_found
    await page.fill('#param-tfin', 'nonsense');
    await execute(page); // 400 invalid_parameter
    expect(await page.textContent('#call-count')).toBe('3');
    expect(await page.evaluate(() => sessionStorage.getItem('tai.sandbox.calls'))).toBe('3');
    // Survives a reload in the same tab…
    await page.reload();
    await page.waitForSelector('#sandbox-form[data-ready="true"]');
    expect(await page.textContent('#call-count')).toBe('3');
    expectNoConsoleErrors(w, [400, 404]);
    await w.close();
    // …but a new session starts again at 0.
    const fresh = await openSandbox();
    expect(await fresh.page.textContent('#call-count')).toBe('0');
    await fresh.close();
  });

  it('shows a malformed TFIN as readable problem details (400 invalid_parameter)', async () => {
    const w = await openSandbox('?op=getRegistryAsset&tfin=TFIN-123');
    const { page } = w;
    expect(await page.inputValue('#param-tfin')).toBe('TFIN-123');
    // The field suggests every TFIN of the registry.
    expect(await page.getAttribute('#param-tfin', 'list')).toBe('tfin-list');
    expect(
      await page.$$eval('#tfin-list option', (os) => os.map((o) => o.getAttribute('value'))),
    ).toEqual(dataset.registry.rows.map((a) => a.tfin));
    expect(await page.getAttribute('#param-tfin', 'aria-invalid')).toBe('true');
    await execute(page);
    const r = await shown(page);
    expect(r.status).toBe(400);
    expect(await page.isVisible('#result-problem')).toBe(true);
    expect(await page.textContent('#problem-title')).toBe('Invalid query parameter');
    expect(await page.textContent('#problem-code')).toBe('invalid_parameter');
    expect(await page.textContent('#problem-status')).toBe('400');
    expect(await page.getAttribute('#problem-type', 'href')).toBe(
      `${h.server.url}/docs/errors#invalid_parameter`,
    );
    expect(await page.textContent('#problem-errors')).toContain('tfin');
    expect(await page.textContent('#problem-detail')).toContain('TFIN');
    expect(await page.textContent('#result-announce')).toContain('400');
    // The link resolves to the explanation.
    await page.click('#problem-type');
    await page.waitForURL(/\/docs\/errors#invalid_parameter$/);
    expect(await page.isVisible('section#invalid_parameter')).toBe(true);
    expectNoConsoleErrors(w, [400]);
    await w.close();
  });

  it('puts the operation and parameters in the address, restores them, and never the key', async () => {
    const w = await openSandbox();
    const { page } = w;
    await page.selectOption('#endpoint', 'getRegistryAsset');
    await page.fill('#param-tfin', tfin);
    const secret = 'tai_test_0123456789abcdef';
    await page.fill('#api-key', secret);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/sandbox');
    expect(Object.fromEntries(url.searchParams)).toEqual({ op: 'getRegistryAsset', tfin });
    expect(page.url()).not.toContain(secret);
    // The snippets show the same request with the key as typed.
    expect(await page.textContent('#snippet-curl')).toContain(`X-API-Key: ${secret}`);
    expect(await page.textContent('#snippet-curl')).toContain(`/v1/registry/asset?tfin=${tfin}`);
    expect(await page.textContent('#snippet-fetch')).toContain(`'X-API-Key': "${secret}"`);
    expect(await page.textContent('#snippet-python')).toContain(`"X-API-Key": "${secret}"`);
    expect(await page.textContent('#snippet-python')).toContain(`params={"tfin": "${tfin}"}`);
    await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: h.server.url,
    });
    await page.click('#copy-curl');
    await page.waitForFunction(() =>
      document.querySelector('#snippets [data-copy-status]')?.textContent?.startsWith('Copied'),
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await page.textContent('#snippet-curl'),
    );
    // The key travels in the header only.
    const response = await execute(page);
    expect(response.request().headers()['x-api-key']).toBe(secret);
    expect(response.url()).not.toContain(secret);
    expect(page.url()).not.toContain(secret);
    const storage = await page.evaluate(() => ({
      session: sessionStorage.getItem('tai.sandbox.api-key'),
      local: Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`),
    }));
    expect(storage.session).toBe(secret);
    expect(storage.local.join('\n')).not.toContain(secret);
    // A shared link restores the form; the key stays with the session that typed it.
    const shared = page.url();
    await page.reload();
    await page.waitForSelector('#sandbox-form[data-ready="true"]');
    expect(await page.inputValue('#api-key')).toBe(secret);
    const other = await openPage(h, new URL(shared).pathname + new URL(shared).search);
    await other.page.waitForSelector('#sandbox-form[data-ready="true"]');
    expect(await other.page.inputValue('#endpoint')).toBe('getRegistryAsset');
    expect(await other.page.inputValue('#param-tfin')).toBe(tfin);
    expect(await other.page.inputValue('#api-key')).toBe('DEMO_KEY');
    await other.close();
    // A key pasted into a sandbox link is neither used nor kept in the address.
    const leaked = await openSandbox(`?op=getRegistryAsset&tfin=${tfin}&api_key=${secret}`);
    expect(leaked.page.url()).not.toContain(secret);
    expect(await leaked.page.inputValue('#api-key')).toBe('DEMO_KEY');
    expect(await leaked.page.textContent('#snippet-curl')).not.toContain(secret);
    await leaked.close();
    expectNoConsoleErrors(w, [401, 403]);
    await w.close();
  });

  it('is operable from the keyboard', async () => {
    const w = await openSandbox('?op=getRegistryAsset');
    const { page } = w;
    await page.focus('#param-tfin');
    await page.keyboard.press('End');
    await execute(page, () => page.keyboard.press('Enter'));
    expect((await shown(page)).status).toBe(200);
    // Tab order: key field → "Use DEMO_KEY" → Execute; Enter on the focused button executes.
    await page.focus('#api-key');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('execute');
    await execute(page, () => page.keyboard.press('Enter'));
    expect(await page.textContent('#call-count')).toBe('2');
    // Every form control has a label.
    const unlabelled = await page.$$eval('#sandbox-form input, #sandbox-form select', (els) =>
      els.filter((e) => (e as HTMLInputElement).labels?.length === 0).map((e) => e.id),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.getAttribute('#result-announce', 'aria-live')).toBe('polite');
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('is usable on a 390 px wide phone screen', async () => {
    const w = await openSandbox('', { width: 390, height: 844 });
    const { page } = w;
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const id of ['#endpoint', '#api-key', '#execute']) {
      const box = (await page.locator(id).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.selectOption('#param-asset_class', 'DEBT');
    await execute(page);
    expect((await shown(page)).status).toBe(200);
    expect(await page.isVisible('#result-status')).toBe(true);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.click('#expand-all');
    expect(await overflow()).toBeLessThanOrEqual(0);
    expectNoConsoleErrors(w);
    await w.close();
  });
});
