// The charts show the API's numbers: each page is loaded in the browser and the numbers in its
// SVG (data-value attributes) and in the table beside it are compared with what the JSON
// endpoints answer, fetched live from the same server.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, openPage, startHarness, type Harness } from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function api<T>(pathname: string): Promise<T> {
  const response = await fetch(h.server.url + pathname, { headers: { 'X-API-Key': 'DEMO_KEY' } });
  expect(response.status, pathname).toBe(200);
  return (await response.json()) as T;
}

/** [data-key, data-value] of the bars (or states) of one chart. */
async function drawn(page: Page, selector: string, key = 'data-key'): Promise<[string, number][]> {
  return page.$$eval(
    selector,
    (els, k) => els.map((e) => [e.getAttribute(k)!, Number(e.getAttribute('data-value'))]),
    key,
  ) as Promise<[string, number][]>;
}

/** [row key, value] of a chart's table (the cell with data-value). */
async function tabled(page: Page, table: string): Promise<[string, number][]> {
  return page.$$eval(`table[data-chart-table="${table}"] tbody tr`, (rows) =>
    rows.map((r) => [
      r.getAttribute('data-key')!,
      Number(r.querySelector('[data-value]')!.getAttribute('data-value')),
    ]),
  ) as Promise<[string, number][]>;
}

const sorted = (pairs: [string, number][]) => [...pairs].sort((a, b) => a[0].localeCompare(b[0]));

interface Figure {
  value: number | null;
  as_of: string;
  history?: { value: number; as_of: string }[];
}
interface Market {
  data: {
    stablecoins: {
      id: string;
      peg_currency: string;
      market_cap: Figure;
      adoption: { score: number };
    }[];
    dominance: {
      overall: {
        id: string;
        share_pct: number;
        market_share_pct: number | null;
        value_usd: number;
      }[];
      market_total: { value_usd: number } | null;
      not_comparable: { id: string; reason: string }[];
      peg_groups: { currency: string; coins_compared: number; share_pct: number }[];
      by_peg: Record<string, { id: string; share_pct: number }[]>;
    };
  };
}
interface Mica {
  data: {
    member_states: {
      iso: string;
      readiness: { score: number; components: Record<string, { points: number }> };
    }[];
  };
}
interface AssetList {
  data: { tfin: string; asset_class: string; ledgers: string[] }[];
  meta: { next_cursor: string | null };
}

/** The series a sparkline should draw: the current value and its history, oldest first. */
const series = (f: Figure) =>
  [{ value: f.value!, as_of: f.as_of }, ...(f.history ?? [])]
    .sort((a, b) => a.as_of.localeCompare(b.as_of))
    .map((p) => [p.as_of, p.value] as [string, number]);

describe('chart numbers equal the API', () => {
  it('/market: dominance by coin, by peg currency, within each peg, adoption, market-cap history', async () => {
    const { data } = await api<Market>('/v1/market/stablecoins?include=history');
    const w = await openPage(h, '/market');
    const { page } = w;
    const overall = data.dominance.overall.map((e) => [e.id, e.share_pct] as [string, number]);
    expect(overall.length).toBeGreaterThan(0);
    expect(await drawn(page, '#chart-dominance-coin g.bar')).toEqual(overall);
    expect(await tabled(page, 'dominance-coin')).toEqual(overall);

    // Market share: each compared coin's share of the dated total, and the rest of the market.
    const total = data.dominance.market_total;
    expect(total).not.toBeNull();
    const inMarket = data.dominance.overall.filter((e) => e.market_share_pct !== null);
    const rest = total!.value_usd - inMarket.reduce((n, e) => n + e.value_usd, 0);
    const market = [
      ...inMarket.map((e) => [e.id, e.market_share_pct] as [string, number]),
      ['rest-of-market', Math.round((rest / total!.value_usd) * 10_000) / 100] as [string, number],
    ];
    expect(await drawn(page, '#chart-market-share g.bar')).toEqual(market);
    expect(await tabled(page, 'market-share')).toEqual(market);
    // The compared coins, and every coin left out with its reason, are on the page.
    const compared = await page.$$eval('table[data-compared-coins] tbody tr', (rows) =>
      rows.map((r) => r.getAttribute('data-key')),
    );
    expect(compared).toEqual(data.dominance.overall.map((e) => e.id));
    const leftOut = (await page.textContent('#left-out ~ details')) ?? '';
    for (const e of data.dominance.not_comparable) expect(leftOut).toContain(e.reason);

    const byPeg = new Map(
      data.dominance.peg_groups
        .filter((g) => g.coins_compared > 0)
        .map((g) => [g.currency, g.share_pct] as [string, number]),
    );
    expect(sorted(await drawn(page, '#chart-dominance-peg g.bar'))).toEqual(sorted([...byPeg]));
    expect(sorted(await tabled(page, 'dominance-peg'))).toEqual(sorted([...byPeg]));

    const currencies = Object.keys(data.dominance.by_peg).filter(
      (c) => data.dominance.by_peg[c]!.length > 0,
    );
    expect(currencies.length).toBeGreaterThan(0);
    for (const currency of currencies) {
      const want = data.dominance.by_peg[currency]!.map(
        (e) => [e.id, e.share_pct] as [string, number],
      );
      expect(await drawn(page, `#chart-within-${currency.toLowerCase()} g.bar`), currency).toEqual(
        want,
      );
      expect(await tabled(page, `within-${currency}`), currency).toEqual(want);
    }

    const adoption = data.stablecoins.map((c) => [c.id, c.adoption.score] as [string, number]);
    expect(sorted(await drawn(page, '#chart-adoption g.bar'))).toEqual(sorted(adoption));

    const withHistory = data.stablecoins.filter(
      (c) => c.market_cap.value !== null && (c.market_cap.history ?? []).length > 0,
    );
    expect(await page.locator('svg[data-chart="sparkline"]').count()).toBe(withHistory.length);
    for (const c of withHistory) {
      const points = await page.$$eval(`#spark-${c.id} circle`, (els) =>
        els.map((e) => [e.getAttribute('data-as-of')!, Number(e.getAttribute('data-value'))]),
      );
      expect(points, c.id).toEqual(series(c.market_cap));
    }
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('/mica: the map and its table show every member state’s readiness score', async () => {
    const { data } = await api<Mica>('/v1/compliance/mica-status');
    const w = await openPage(h, '/mica');
    const { page } = w;
    const want = sorted(
      data.member_states.map((s) => [s.iso, s.readiness.score] as [string, number]),
    );
    expect(want).toHaveLength(27);
    expect(sorted(await drawn(page, '#chart-readiness-map g.choro-state', 'data-iso'))).toEqual(
      want,
    );
    expect(sorted(await tabled(page, 'readiness'))).toEqual(want);
    // The map has a text alternative naming its extremes, and is an image with a name.
    const svg = page.locator('#chart-readiness-map');
    expect(await svg.getAttribute('role')).toBe('img');
    const desc = (await page.textContent('#chart-readiness-map-desc')) ?? '';
    const best = [...data.member_states].sort((a, b) => b.readiness.score - a.readiness.score)[0]!;
    expect(desc).toContain(String(best.readiness.score));
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('/docs/methodology: the readiness components stack up to each state’s score', async () => {
    const { data } = await api<Mica>('/v1/compliance/mica-status');
    const w = await openPage(h, '/docs/methodology');
    const { page } = w;
    const rows = await page.$$eval('#chart-readiness-components g.stack-row', (els) =>
      els.map((e) => ({
        iso: e.getAttribute('data-key')!,
        total: Number(e.getAttribute('data-total')),
        parts: Object.fromEntries(
          [...e.querySelectorAll('rect[data-part]')].map((r) => [
            r.getAttribute('data-part')!,
            Number(r.getAttribute('data-value')),
          ]),
        ),
      })),
    );
    expect(rows).toHaveLength(data.member_states.length);
    for (const s of data.member_states) {
      const row = rows.find((r) => r.iso === s.iso)!;
      const points = Object.fromEntries(
        Object.entries(s.readiness.components).map(([k, c]) => [k, c.points]),
      );
      expect(row.parts, s.iso).toEqual(points);
      expect(Math.min(100, row.total), s.iso).toBe(s.readiness.score);
    }
    expect(sorted(await tabled(page, 'readiness-components'))).toEqual(
      sorted(data.member_states.map((s) => [s.iso, s.readiness.score])),
    );
    expectNoConsoleErrors(w);
    await w.close();
  });

  it('/: the registry by asset class and by ledger, and amounts over time', async () => {
    const assets: AssetList['data'] = [];
    let cursor: string | null = null;
    do {
      const page: AssetList = await api<AssetList>(
        `/v1/registry/assets?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assets.push(...page.data);
      cursor = page.meta.next_cursor;
    } while (cursor);
    const count = (keys: string[]) => {
      const n = new Map<string, number>();
      for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
      return sorted([...n]);
    };
    const w = await openPage(h, '/');
    const { page } = w;
    const byClass = count(assets.map((a) => a.asset_class));
    const byLedger = count(assets.flatMap((a) => [...new Set(a.ledgers)]));
    expect(sorted(await drawn(page, '#chart-registry-class g.bar'))).toEqual(byClass);
    expect(sorted(await tabled(page, 'registry-class'))).toEqual(byClass);
    expect(sorted(await drawn(page, '#chart-registry-ledger g.bar'))).toEqual(byLedger);
    expect(sorted(await tabled(page, 'registry-ledger'))).toEqual(byLedger);

    const shown = await page.$$eval('table[data-chart-table="asset-history"] tbody tr', (rows) =>
      rows.map((r) => r.getAttribute('data-key')!),
    );
    for (const tfin of shown) {
      const { data } = await api<{ data: { amount: Figure } }>(
        `/v1/registry/asset?tfin=${encodeURIComponent(tfin)}&include=history`,
      );
      const points = await page.$$eval(`#spark-${tfin.toLowerCase()} circle`, (els) =>
        els.map((e) => [e.getAttribute('data-as-of')!, Number(e.getAttribute('data-value'))]),
      );
      expect(points, tfin).toEqual(series(data.amount));
    }
    expectNoConsoleErrors(w);
    await w.close();
  });
});
