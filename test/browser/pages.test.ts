// The reader-facing pages in a real browser against the built server: they render, load nothing
// from another origin, log no errors, and show what the build counted.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/artifact.ts';
import { PROBLEMS } from '../../src/domain/errors.ts';
import { OPERATION_PATHS } from '../../src/api/operations.ts';
import { diffManifests, readManifests, RECORD_KINDS } from '../../src/dataset/release-manifest.ts';
import { recordUrl } from '../../src/api/record-urls.ts';
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
const dataset = readDataset();

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('pages', () => {
  it('/docs renders the five operations with Scalar from our own origin', async () => {
    const started = performance.now();
    const w = await openPage(h, '/docs');
    const { page } = w;
    await page
      .getByText('List tokenized assets and series', { exact: true })
      .first()
      .waitFor({ state: 'visible', timeout: ACTION_TIMEOUT_MS });
    // A recorded figure, not a pass/fail time (it depends on the machine's load): navigation to
    // the reference showing its first operation.
    const ms = Math.round(performance.now() - started);
    writeFileSync(
      path.join(SCREENSHOTS, '..', 'docs-reference-ms.json'),
      `${JSON.stringify({ docs_reference_visible_ms: ms, measured: new Date().toISOString() })}\n`,
    );
    console.log(`/docs: reference visible after ${ms} ms`);
    for (const summary of [
      'Full profile of one asset',
      'Stablecoin dominance, MiCA ratings and adoption',
      'MiCA indicators and member-state readiness',
      'Live platform status',
    ]) {
      expect(await page.getByText(summary, { exact: true }).count(), summary).toBeGreaterThan(0);
    }
    for (const href of [
      '/docs/methodology',
      '/docs/data-report',
      '/docs/errors',
      '/docs/changelog',
      '/sandbox',
    ])
      expect(await page.locator(`.docs-links a[href="${href}"]`).count(), href).toBe(1);
    // Let late requests (fonts, telemetry, anything lazy) show themselves before checking.
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'docs.png'), fullPage: true });
    // "Test Request" sends from the browser to our origin, with DEMO_KEY preset, no proxy.
    const open = page.locator('button.show-api-client-button').first();
    await open.scrollIntoViewIfNeeded();
    await open.click({ force: true });
    const send = page.getByRole('button', { name: /^send/i }).first();
    await send.waitFor({ state: 'visible' });
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/registry/assets'),
      send.click(),
    ]);
    expect(response.url().startsWith(`${h.server.url}/`)).toBe(true);
    expect(response.request().headers()['x-api-key']).toBe('DEMO_KEY');
    expect(response.status()).toBe(200);
    expect(await page.evaluate(() => Object.keys(localStorage).join(','))).not.toMatch(/auth/i);
    expect(w.requests.some((u) => u === `${h.server.url}/openapi.json`)).toBe(true);
    expect(w.requests.some((u) => u === `${h.server.url}/scalar/standalone.js`)).toBe(true);
    expectOwnOrigin(h, w);
    expectNoConsoleErrors(w);
    // The reference reads /openapi.json without complaint (it warned of schemas it could not type).
    expect(w.warnings, 'console warnings').toEqual([]);
    await w.close();
  });

  it('/ shows the coverage counted from the built data, standards, access and a quick start', async () => {
    const w = await openPage(h, '/');
    const { page } = w;
    const figures = await page.$$eval('#coverage + p + ul.cards li strong', (els) =>
      els.map((e) => Number(e.textContent)),
    );
    expect(figures).toEqual([
      dataset.registry.rows.length,
      dataset.market.coins.length,
      24,
      27,
      dataset.mica.coverage.list.length,
    ]);
    expect(dataset.market.venues.length).toBe(24);
    expect(dataset.mica.member_states.length).toBe(27);
    const text = (await page.textContent('main')) ?? '';
    for (const fact of [
      'Registry data standard 1.2 (May 2026)',
      'GTDS 2.1',
      'API v1',
      '499 EUR',
      '99.99 %',
      'Dedicated high-bandwidth endpoints',
    ])
      expect(text, fact).toContain(fact);
    expect(await page.textContent('#access + ul')).toContain('Contact sales');
    // How to get a key, with the contacts the build was configured with, and none invented.
    expect(await page.textContent('#get-a-key + ol')).toContain('499 EUR');
    const sales = process.env['SALES_CONTACT']?.trim();
    const support = process.env['SUPPORT_CONTACT']?.trim();
    if (sales || support) {
      const shown = (await page.textContent('[data-testid="contacts"]')) ?? '';
      for (const c of [sales, support].filter(Boolean))
        expect(shown).toContain(c!.replace(/^https?:\/\//, ''));
      expect(await page.locator('[data-testid="no-contacts"]').count()).toBe(0);
      expect((await page.textContent('.site-footer')) ?? '').toMatch(/Sales:|Support:/);
    } else {
      expect(await page.locator('[data-testid="contacts"]').count()).toBe(0);
      expect(await page.locator('[data-testid="no-contacts"]').count()).toBe(1);
      expect((await page.textContent('.site-footer')) ?? '').not.toMatch(/Sales:|Support:/);
    }
    const curl = (await page.textContent('#qs-list')) ?? '';
    expect(curl).toContain("curl -H 'X-API-Key: DEMO_KEY'");
    expect(curl).toContain(`${h.server.url}/v1/registry/assets`);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'landing.png'), fullPage: true });
    expectOwnOrigin(h, w);
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('/docs/errors has a section for every problem code, where its type points', async () => {
    const w = await openPage(h, '/docs/errors#rate_limited');
    const { page } = w;
    for (const [code, p] of Object.entries(PROBLEMS)) {
      const section = page.locator(`section#${code}`);
      expect(await section.count(), code).toBe(1);
      const text = (await section.textContent()) ?? '';
      expect(text).toContain(String(p.status));
      expect(text).toContain(p.title);
      expect(text).toContain(`"type": "/docs/errors#${code}"`);
    }
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('rate_limited');
    expectOwnOrigin(h, w);
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('/docs/changelog renders CHANGELOG.md and the dataset served', async () => {
    const w = await openPage(h, '/docs/changelog');
    const { page } = w;
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain(dataset.dataset_version);
    for (const op of OPERATION_PATHS) expect(text).toContain(op);
    expect(text).toContain('Registry data standard 1.2 (May 2026)');
    // The generated section: each release's added, changed and removed records against the
    // previous one, from the committed manifests (data/releases/), each linked to its API URL.
    const manifests = readManifests();
    const [prev, next] = manifests.slice(-2);
    const diff = diffManifests(prev!, next!);
    const release = page.locator(`section[id="release-${next!.dataset_version}"]`);
    expect(await release.count()).toBe(1);
    const added = diff.assets.added;
    expect(added.length).toBeGreaterThan(0);
    for (const kind of RECORD_KINDS)
      for (const change of ['added', 'changed', 'removed'] as const) {
        const ids = diff[kind][change];
        const list = release.locator(`ul[data-kind="${kind}"][data-change="${change}"] li`);
        expect(await list.count(), `${kind} ${change}`).toBe(ids.length);
      }
    for (const id of added) {
      const link = release.locator(
        `ul[data-kind="assets"][data-change="added"] a[href="${recordUrl('assets', id)}"]`,
      );
      expect(await link.count(), id).toBe(1);
      expect((await link.textContent())?.trim()).toBe(id);
    }
    expectOwnOrigin(h, w);
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('every page loads without errors and keeps the navigation', async () => {
    for (const pathname of [
      '/',
      '/market',
      '/mica',
      '/docs/methodology',
      '/docs/data-report',
      '/docs/errors',
      '/docs/changelog',
      '/sandbox',
    ]) {
      const w = await openPage(h, pathname, { width: 390, height: 844 });
      expect(await w.page.locator('h1').count(), pathname).toBe(1);
      expect(await w.page.locator('nav[aria-label="Main"] a').count()).toBe(9);
      // On a phone every navigation link is on screen (no link hidden past the edge) and tap-sized.
      const links = await w.page.$$eval('nav[aria-label="Main"] a', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { right: r.right, left: r.left, height: r.height };
        }),
      );
      for (const l of links) {
        expect(l.left).toBeGreaterThanOrEqual(0);
        expect(l.right).toBeLessThanOrEqual(390);
        expect(l.height).toBeGreaterThanOrEqual(32);
      }
      const overflow = await w.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${pathname} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
      expectOwnOrigin(h, w);
      expectNoConsoleErrors(w);
      await w.close();
    }
  });
});
