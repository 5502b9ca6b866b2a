// Recomputes every derived stablecoin number straight from the YAML files (MiCA: mica.test.ts),
// independently of src/dataset, and compares it with what the API serves.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { stablecoinsBody } from '../../src/api/bodies.ts';
import { loadData } from '../../src/authoring/load.ts';
import { VENUE_COUNT } from '../../src/authoring/rules/venues-count.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (f: string) => parse(readFileSync(path.resolve(f), 'utf8')) as any;
const coins: any[] = readdirSync('data/stablecoins')
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => read(`data/stablecoins/${f}`));
const venues: any[] = read('data/venues.yaml').venues;
const fx: any[] = read('data/fx.yaml').rates;
const scores = read('data/codes/stablecoin-scores.yaml');
const totals = read('data/stablecoin-market-totals.yaml');

const loaded = await loadData(path.resolve('.'), RELEASE_DATE);
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);
const served = stablecoinsBody(dataset);
const servedCoin = (id: string) => served.data.stablecoins.find((c) => c.id === id)!;

/** Independent largest-remainder rounding to 0.01. */
function shares(values: number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  const hundredths = values.map((v) => (v * 10000) / total);
  const out = hundredths.map(Math.floor);
  const left = 10000 - out.reduce((a, b) => a + b, 0);
  hundredths
    .map((h, i) => [h - Math.floor(h), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, left)
    .forEach(([, i]) => out[i]!++);
  return out.map((x) => x / 100);
}

describe('stablecoin market data', () => {
  it('names at least 60 stablecoins, USD and EUR pegged among others, each with a status and a dated figure or its reason', () => {
    expect(loaded.problems).toEqual([]);
    expect(coins.length).toBeGreaterThanOrEqual(60);
    const pegs = new Set(coins.map((c) => c.peg_currency));
    expect(pegs.has('USD') && pegs.has('EUR')).toBe(true);
    for (const peg of pegs) expect(peg).toMatch(/^[A-Z]{3}$/);
    for (const c of coins) {
      expect(c.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(['live', 'depegged', 'wound_down', 'inactive']).toContain(c.status.value);
      for (const kind of ['market_cap', 'circulating_supply']) {
        const f = c[kind];
        const served = servedCoin(c.id)[kind as 'market_cap'];
        if (f.value === null) {
          // No figure: no date, no source, no age, and a reason.
          expect([f.as_of, f.source, served.age_days], `${c.id} ${kind}`).toEqual([
            null,
            null,
            null,
          ]);
          expect(f.value_null_reason.length, `${c.id} ${kind}`).toBeGreaterThan(20);
        } else {
          expect(f.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(c.sources.map((s: any) => s.id)).toContain(f.source);
          expect(served.age_days).toBe((Date.parse(RELEASE_DATE) - Date.parse(f.as_of)) / 864e5);
        }
      }
    }
  });

  it('has exactly 24 venues', () => {
    expect(venues).toHaveLength(VENUE_COUNT);
    expect(served.data.venues).toHaveLength(VENUE_COUNT);
  });

  it('compares circulating supply only, within one window of at most 92 days chosen by coverage and recency, among live coins; every share recomputed', () => {
    // The newest base→quote rate on or before the date, at most 62 days old.
    const newest = (base: string, quote: string, date: string) =>
      fx
        .filter(
          (r) =>
            r.base === base &&
            r.quote === quote &&
            r.date <= date &&
            (Date.parse(date) - Date.parse(r.date)) / 864e5 <= 62,
        )
        .sort((a, b) => b.date.localeCompare(a.date))[0];
    const usd = (peg: string, value: number, date: string): number | null => {
      if (peg === 'USD') return Math.round(value);
      const direct = newest(peg, 'USD', date);
      if (direct) return Math.round(value * direct.rate);
      const perEuro = newest('EUR', peg, date);
      const usdPerEuro = perEuro && newest('EUR', 'USD', perEuro.date);
      if (!perEuro || !usdPerEuro || usdPerEuro.date !== perEuro.date) return null;
      return Math.round(value * (Math.round((usdPerEuro.rate / perEuro.rate) * 1e6) / 1e6));
    };
    // Every dated circulating supply of a live coin: current figure and history.
    const live = coins.filter((c) => c.status.value === 'live');
    const points = (c: any) =>
      [
        // A sum read from every issued deployment counts; a partial one does not.
        ...(c.ledger_circulating_supply?.complete && c.ledger_circulating_supply.value > 0
          ? [c.ledger_circulating_supply]
          : []),
        ...(c.circulating_supply.value === null ? [] : [c.circulating_supply]),
        ...(c.circulating_supply.history ?? []),
      ].sort((a: any, b: any) => b.as_of.localeCompare(a.as_of));
    // The window: a calendar quarter holding a live coin's figure; coverage is the share of the
    // live coins' newest figures (USD) held by coins with a figure in it; the latest quarter
    // within 5 points of the best coverage.
    const quarter = (date: string) => {
      const y = Number(date.slice(0, 4));
      const q = Math.ceil(Number(date.slice(5, 7)) / 3);
      const ends = ['03-31', '06-30', '09-30', '12-31'];
      return { start: `${y}-${String(q * 3 - 2).padStart(2, '0')}-01`, end: `${y}-${ends[q - 1]}` };
    };
    const inWindow = (c: any, w: { start: string; end: string }) =>
      points(c).find((p: any) => p.as_of >= w.start && p.as_of <= w.end);
    const newestUsd = new Map(
      live
        .filter((c) => points(c).length)
        .map((c) => [c.id, usd(c.peg_currency, points(c)[0].value, points(c)[0].as_of)] as const)
        .filter(([, v]) => v !== null),
    );
    const allNewestUsd = [...newestUsd.values()].reduce((n: number, v) => n + v!, 0);
    const coverage = (w: { start: string; end: string }) =>
      (live.reduce((n, c) => {
        const p = inWindow(c, w);
        return p && usd(c.peg_currency, p.value, p.as_of) !== null
          ? n + (newestUsd.get(c.id) ?? 0)
          : n;
      }, 0) /
        allNewestUsd) *
      100;
    const candidates = [
      ...new Map(
        live.flatMap((c) => points(c).map((p: any) => [quarter(p.as_of).start, quarter(p.as_of)])),
      ).values(),
    ].sort((a: any, b: any) => a.start.localeCompare(b.start)) as { start: string; end: string }[];
    const best = Math.max(...candidates.map(coverage));
    const window = candidates.filter((w) => coverage(w) >= best - 5).at(-1)!;
    const d = served.data.dominance;
    expect(d.basis_kind).toBe('circulating_supply');
    expect(d.window).toMatchObject({
      ...window,
      days: (Date.parse(window.end) - Date.parse(window.start)) / 864e5 + 1,
    });
    expect(d.reference_date).toBe(window.end);
    const inMonth = (c: any) => inWindow(c, window);

    const compared = live
      .map((c) => {
        const p = inMonth(c);
        return p ? { c, p, v: usd(c.peg_currency, p.value, p.as_of) } : null;
      })
      .filter((x): x is { c: any; p: any; v: number } => x !== null && x.v !== null);
    expect(d.coins_compared).toBe(compared.length);
    expect(d.coins_live).toBe(live.length);
    const total = compared.reduce((n, x) => n + x.v, 0);
    expect(d.total_usd).toBe(total);
    const order = [...compared].sort((a, b) => b.v - a.v || a.c.id.localeCompare(b.c.id));
    const expected = shares(order.map((x) => x.v));
    expect(d.overall.map((r) => [r.id, r.value_usd, r.as_of, r.share_of_compared_pct])).toEqual(
      order.map((x, i) => [x.c.id, x.v, x.p.as_of, expected[i]]),
    );
    expect(Math.round(d.overall.reduce((n, r) => n + r.share_of_compared_pct, 0) * 100)).toBe(
      compared.length ? 10000 : 0,
    );
    // Within each peg, in that currency; and each peg's share of the compared total.
    const pegs = [...new Set(['USD', 'EUR', ...coins.map((c) => c.peg_currency)])];
    const groupTotals = pegs.map((peg) =>
      compared.filter((x) => x.c.peg_currency === peg).reduce((n, x) => n + x.v, 0),
    );
    const groupShares = shares(groupTotals);
    for (const [i, peg] of pegs.entries()) {
      const inPeg = order.filter((x) => x.c.peg_currency === peg);
      const within = shares(inPeg.map((x) => x.p.value));
      for (const [k, x] of inPeg.entries())
        expect(servedCoin(x.c.id).dominance.share_within_peg_pct, x.c.id).toBe(within[k]);
      const group = d.peg_groups.find((g) => g.currency === peg)!;
      expect([group.coins_compared, group.total_usd]).toEqual([inPeg.length, groupTotals[i]]);
      // A peg with no coin compared says so; it is not a 0 % share.
      if (inPeg.length === 0) {
        expect(group.share_pct, peg).toBeNull();
        expect(group.not_compared_reason, peg).toMatch(/^Not compared: /);
      } else if (total > 0) expect(group.share_pct).toBe(groupShares[i]);
    }
    // Everyone else: not comparable with a reason (live), or not live with its status.
    const comparedIds = new Set(compared.map((x) => x.c.id));
    for (const c of coins) {
      const view = servedCoin(c.id).dominance;
      expect(view.compared, c.id).toBe(comparedIds.has(c.id));
      if (!comparedIds.has(c.id)) {
        expect(view.share_of_compared_pct, c.id).toBeNull();
        expect(view.not_comparable_reason, c.id).toMatch(/\S{3}/);
      }
    }
    expect(d.not_live.map((n) => n.id).sort()).toEqual(
      coins
        .filter((c) => c.status.value !== 'live')
        .map((c) => c.id)
        .sort(),
    );
    expect(d.not_comparable.map((n) => n.id).sort()).toEqual(
      live
        .filter((c) => !comparedIds.has(c.id))
        .map((c) => c.id)
        .sort(),
    );
    // Covered share: the compared coins' newest figures against every live coin's newest figure.
    const all = [...newestUsd.values()].reduce((n: number, v) => n + v!, 0);
    const mine = compared.reduce((n, x) => n + (newestUsd.get(x.c.id) ?? 0), 0);
    expect(d.covered_share_pct).toBe(all > 0 ? Math.round((mine / all) * 1000) / 10 : null);

    // The market total: the newest one dated inside the window; each compared coin's share of it.
    const inside = totals.totals
      .filter((t: any) => t.as_of >= window.start && t.as_of <= window.end)
      .sort((a: any, b: any) => b.as_of.localeCompare(a.as_of) || a.id.localeCompare(b.id));
    const t = inside[0];
    expect(d.market_total?.id ?? null).toBe(t?.id ?? null);
    if (!t) {
      expect(d.market_total_null_reason).toMatch(/no market share|No dated total/i);
      for (const r of d.overall) expect(r.market_share_pct).toBeNull();
    } else {
      const inScope = (x: { c: any }) =>
        t.scope === 'all_stablecoins' || x.c.peg_currency === 'USD';
      for (const x of order) {
        const row = d.overall.find((r) => r.id === x.c.id)!;
        const expectedShare = inScope(x) ? Math.round((x.v / t.value_usd) * 10000) / 100 : null;
        expect(row.market_share_pct, x.c.id).toBe(expectedShare);
        expect(servedCoin(x.c.id).dominance.market_share_pct).toBe(expectedShare);
      }
      const scoped = order.filter(inScope).reduce((n, x) => n + x.v, 0);
      expect(d.coverage_of_market_pct).toBe(Math.round((scoped / t.value_usd) * 1000) / 10);
      expect(d.market_total).toMatchObject({
        value_usd: t.value_usd,
        as_of: t.as_of,
        kind: t.kind,
        source: { id: t.source },
      });
      expect(d.summary).toContain(t.as_of);
    }
    // Older than eight months before the dataset date: labelled in the answer.
    const eightMonthsBefore = (() => {
      const [y, m, day] = RELEASE_DATE.split('-').map(Number) as [number, number, number];
      const first = new Date(Date.UTC(y, m - 9, 1));
      const last = new Date(
        Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0),
      ).getUTCDate();
      return `${first.toISOString().slice(0, 8)}${String(Math.min(day, last)).padStart(2, '0')}`;
    })();
    if (window.end < eightMonthsBefore) expect(d.outdated_note).toMatch(/more than 8 months/);
    else expect(d.outdated_note).toBeNull();
  });

  it("states a dated market total with its source; USDT's and USDC's market shares agree with the total's own split within 2 points; at least 8 coins in one window of at most 92 days", () => {
    const d = served.data.dominance;
    expect(d.market_total).not.toBeNull();
    expect(d.market_total!.source.url).toMatch(/^https:\/\//);
    expect(d.coins_compared).toBeGreaterThanOrEqual(8);
    const days = (Date.parse(d.window!.end) - Date.parse(d.window!.start)) / 864e5 + 1;
    expect(days).toBeLessThanOrEqual(92);
    for (const id of ['usdt', 'usdc']) {
      const stated = d.market_total!.stated_split.find((s) => s.id === id);
      expect(stated, id).toBeDefined();
      const own = stated!.share_pct ?? (stated!.value_usd! / d.market_total!.value_usd) * 100;
      const served = d.overall.find((r) => r.id === id)!.market_share_pct!;
      expect(Math.abs(served - own), id).toBeLessThanOrEqual(2);
    }
  });

  it('derives each MiCA compliance rating from the facts with the documented points', () => {
    const t = scores.compliance_rating;
    for (const c of coins) {
      const points =
        t.authorisation[c.mica.authorisation.status] +
        t.attestation_frequency[c.reserve_attestation.frequency ?? 'unknown'] +
        (c.reserve_attestation.standard ? t.attestation_standard_named : 0) +
        (c.mica.eu_venue_restrictions.length === 0 ? t.no_eu_venue_restrictions : 0) +
        (c.issuer.lei ? t.issuer_lei_published : 0);
      const rating = t.scale.find((s: any) => points >= s.min_points).rating;
      expect(servedCoin(c.id).compliance_rating, c.id).toMatchObject({ points, rating });
    }
  });

  it('derives each adoption score over the 24 venues with the documented weights', () => {
    const w = scores.adoption.weights;
    const inst = (v: any) =>
      v.institutional_routes.some((r: string) => scores.adoption.institutional_routes.includes(r));
    const mica = venues.filter((v) => v.mica_casp.authorised === true);
    const institutional = venues.filter(inst);
    for (const c of coins) {
      const on = venues.filter((v) => v.stablecoins_listed.includes(c.id));
      const score = Math.round(
        100 *
          (w.listed * (on.length / 24) +
            w.mica_authorised_listed *
              (on.filter((v) => v.mica_casp.authorised === true).length / mica.length) +
            w.institutional_listed * (on.filter(inst).length / institutional.length)),
      );
      expect(servedCoin(c.id).adoption, c.id).toMatchObject({
        score,
        venues_listed: on.length,
        venues_total: 24,
      });
    }
  });
});

describe('v1 compatibility: fields of the earlier dominance shape stay, with their successors’ values', () => {
  const d = served.data.dominance;
  it('response-level aliases', () => {
    expect(d.total_market_cap_usd).toBe(d.total_usd);
    expect(d.total_usd).toBe(d.compared_total_usd);
    for (const row of d.overall) {
      expect(row.market_cap_usd).toBe(row.value_usd);
      expect(row.share_pct).toBe(row.share_of_compared_pct);
    }
    for (const rows of Object.values(d.by_peg))
      for (const row of rows) expect(row.market_cap).toBe(row.circulating_supply);
    expect(d.excluded.map((e) => e.id).sort()).toEqual(
      [...d.not_comparable, ...d.not_live].map((e) => e.id).sort(),
    );
  });
  it('per-coin aliases', () => {
    for (const c of served.data.stablecoins) {
      expect(c.dominance.share_of_named_set_pct).toBe(c.dominance.share_of_compared_pct);
      expect(c.dominance.excluded_reason).toBe(c.dominance.not_comparable_reason);
    }
  });
});
