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

/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (f: string) => parse(readFileSync(path.resolve(f), 'utf8')) as any;
const coins: any[] = readdirSync('data/stablecoins')
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => read(`data/stablecoins/${f}`));
const venues: any[] = read('data/venues.yaml').venues;
const fx: any[] = read('data/fx.yaml').rates;
const scores = read('data/codes/stablecoin-scores.yaml');

const loaded = await loadData(path.resolve('.'), '2026-11-22');
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
  it('names at least 12 stablecoins, USD and EUR pegged among others, each dated and sourced', () => {
    expect(loaded.problems).toEqual([]);
    expect(coins.length).toBeGreaterThanOrEqual(12);
    const pegs = new Set(coins.map((c) => c.peg_currency));
    expect(pegs.has('USD') && pegs.has('EUR')).toBe(true);
    for (const peg of pegs) expect(peg).toMatch(/^[A-Z]{3}$/);
    for (const c of coins) {
      expect(c.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.market_cap.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.sources.map((s: any) => s.id)).toContain(c.market_cap.source);
    }
  });

  it('has exactly 24 venues', () => {
    expect(venues).toHaveLength(VENUE_COUNT);
    expect(served.data.venues).toHaveLength(VENUE_COUNT);
  });

  it('computes dominance shares of the named set that sum to 100, overall and within each peg', () => {
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
    const usdValue = (c: any) => {
      if (c.peg_currency === 'USD') return c.market_cap.value;
      const direct = newest(c.peg_currency, 'USD', c.market_cap.as_of);
      if (direct) return Math.round(c.market_cap.value * direct.rate);
      // Otherwise the ECB cross through the euro, both rates of one day.
      const perEuro = newest('EUR', c.peg_currency, c.market_cap.as_of);
      const usdPerEuro = perEuro && newest('EUR', 'USD', perEuro.date);
      if (!perEuro || !usdPerEuro || usdPerEuro.date !== perEuro.date) return null;
      const rate = Math.round((usdPerEuro.rate / perEuro.rate) * 1e6) / 1e6;
      return Math.round(c.market_cap.value * rate);
    };
    const ranked = coins
      .filter((c) => c.market_cap.value !== null && usdValue(c) !== null)
      .sort((a, b) => a.id.localeCompare(b.id));
    const overall = shares(ranked.map(usdValue));
    ranked.forEach((c, i) =>
      expect(servedCoin(c.id).dominance.share_of_named_set_pct, c.id).toBe(overall[i]),
    );
    expect(
      Math.round(served.data.dominance.overall.reduce((n, r) => n + r.share_pct, 0) * 100),
    ).toBe(10000);
    expect(served.data.dominance.total_market_cap_usd).toBe(
      ranked.reduce((n, c) => n + usdValue(c), 0),
    );
    for (const peg of [...new Set(['USD', 'EUR', ...coins.map((c) => c.peg_currency)])]) {
      const inPeg = coins
        .filter((c) => c.peg_currency === peg && c.market_cap.value !== null)
        .sort((a, b) => a.id.localeCompare(b.id));
      const expected = shares(inPeg.map((c) => c.market_cap.value));
      inPeg.forEach((c, i) =>
        expect(servedCoin(c.id).dominance.share_within_peg_pct, c.id).toBe(expected[i]),
      );
      expect(
        Math.round(
          (served.data.dominance.by_peg[peg] ?? []).reduce((n, r) => n + r.share_pct, 0) * 100,
        ),
      ).toBe(inPeg.length ? 10000 : 0);
    }
    for (const c of coins.filter((x) => x.market_cap.value === null))
      expect(servedCoin(c.id).dominance.share_of_named_set_pct).toBeNull();
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
