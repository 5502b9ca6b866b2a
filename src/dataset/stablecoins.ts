// Derived stablecoin figures (GTDS 2.1, data/codes/stablecoin-scores.yaml): dominance, MiCA
// compliance rating and institutional adoption. Pure functions; the methodology page states
// each formula and test/data/market.test.ts recomputes them from the YAML.
import type { FxFile, StablecoinRecord, StablecoinScoresTable, Venue } from '../domain/market.ts';

/**
 * Largest-remainder rounding: shares of `values` in percent with `decimals` places that add up
 * to exactly 100 (when any value is positive).
 */
export function percentShares(values: readonly number[], decimals = 2): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) return values.map(() => 0);
  const unit = 10 ** decimals;
  const exact = values.map((v) => (v / total) * 100 * unit);
  const floors = exact.map(Math.floor);
  let missing = 100 * unit - floors.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, r: e - floors[i]! }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (missing <= 0) break;
    floors[i]! += 1;
    missing -= 1;
  }
  return floors.map((f) => f / unit);
}

/** Days from a to b (YYYY-MM-DD). */
function days(a: string, b: string): number {
  return (Date.parse(b) - Date.parse(a)) / 86_400_000;
}

export const FX_MAX_AGE_DAYS = 62;

interface Rate {
  rate: number;
  date: string;
  source: string | null;
}

/** The latest `base`→`quote` rate published on or before `date`, at most FX_MAX_AGE_DAYS old. */
function latestRate(fx: FxFile | null, base: string, quote: string, date: string) {
  return (fx?.rates ?? [])
    .filter(
      (r) =>
        r.base === base &&
        r.quote === quote &&
        r.date <= date &&
        days(r.date, date) <= FX_MAX_AGE_DAYS,
    )
    .sort((a, b) => b.date.localeCompare(a.date))[0];
}

/**
 * The USD value of one unit of `currency` on or before `date`: a direct rate, else the ECB cross
 * through the euro on one day (the ECB publishes EUR→USD and EUR→CHF, GBP, SEK, … together).
 */
export function usdRate(fx: FxFile | null, currency: string, date: string): Rate | null {
  if (currency === 'USD') return { rate: 1, date, source: null };
  const direct = latestRate(fx, currency, 'USD', date);
  if (direct) return { rate: direct.rate, date: direct.date, source: direct.source };
  const perEuro = latestRate(fx, 'EUR', currency, date);
  const usdPerEuro = perEuro && latestRate(fx, 'EUR', 'USD', perEuro.date);
  if (!perEuro || !usdPerEuro || usdPerEuro.date !== perEuro.date) return null;
  return {
    rate: Math.round((usdPerEuro.rate / perEuro.rate) * 1e6) / 1e6,
    date: perEuro.date,
    source: perEuro.source,
  };
}

/** USD and EUR always, then every other peg currency in the data, in alphabetical order. */
export function pegCurrencies(coins: readonly Pick<StablecoinRecord, 'peg_currency'>[]): string[] {
  const others = [...new Set(coins.map((c) => c.peg_currency))].filter(
    (c) => c !== 'USD' && c !== 'EUR',
  );
  return ['USD', 'EUR', ...others.sort()];
}

export interface DominanceEntry {
  id: string;
  market_cap_usd: number | null;
  share_of_named_set_pct: number | null;
  share_within_peg_pct: number | null;
  excluded_reason: string | null;
}

export function dominance(coins: readonly StablecoinRecord[], fx: FxFile | null) {
  const entries = new Map<string, DominanceEntry>();
  const usd: { id: string; value: number }[] = [];
  const fxUsed: { id: string; rate: number; date: string; source: string | null }[] = [];
  for (const c of coins) {
    const cap = c.market_cap.value;
    if (cap === null) {
      entries.set(c.id, {
        id: c.id,
        market_cap_usd: null,
        share_of_named_set_pct: null,
        share_within_peg_pct: null,
        excluded_reason: 'no dated market capitalisation in the sources',
      });
      continue;
    }
    const rate = usdRate(fx, c.peg_currency, c.market_cap.as_of);
    const value = rate ? Math.round(cap * rate.rate) : null;
    if (rate && c.peg_currency !== 'USD') fxUsed.push({ id: c.id, ...rate });
    entries.set(c.id, {
      id: c.id,
      market_cap_usd: value,
      share_of_named_set_pct: null,
      share_within_peg_pct: null,
      excluded_reason: rate
        ? null
        : `no ECB ${c.peg_currency}/USD rate within ${FX_MAX_AGE_DAYS} days before ${c.market_cap.as_of}`,
    });
    if (value !== null) usd.push({ id: c.id, value });
  }
  percentShares(usd.map((u) => u.value)).forEach(
    (share, i) => (entries.get(usd[i]!.id)!.share_of_named_set_pct = share),
  );
  for (const peg of pegCurrencies(coins)) {
    const inPeg = coins.filter((c) => c.peg_currency === peg && c.market_cap.value !== null);
    percentShares(inPeg.map((c) => c.market_cap.value!)).forEach(
      (share, i) => (entries.get(inPeg[i]!.id)!.share_within_peg_pct = share),
    );
  }
  return { entries, fxUsed };
}

export function complianceRating(
  c: StablecoinRecord,
  table: StablecoinScoresTable['compliance_rating'],
) {
  const components = {
    authorisation: table.authorisation[c.mica.authorisation.status] ?? 0,
    attestation_frequency:
      table.attestation_frequency[c.reserve_attestation.frequency ?? 'unknown'] ?? 0,
    attestation_standard_named: c.reserve_attestation.standard
      ? table.attestation_standard_named
      : 0,
    no_eu_venue_restrictions:
      c.mica.eu_venue_restrictions.length === 0 ? table.no_eu_venue_restrictions : 0,
    issuer_lei_published: c.issuer.lei ? table.issuer_lei_published : 0,
  };
  const points = Object.values(components).reduce((a, b) => a + b, 0);
  const scale = [...table.scale].sort((a, b) => b.min_points - a.min_points);
  const rating = scale.find((s) => points >= s.min_points) ?? scale[scale.length - 1]!;
  return { rating: rating.rating, meaning: rating.meaning, points, components };
}

export function adoption(
  coinId: string,
  venues: readonly Venue[],
  table: StablecoinScoresTable['adoption'],
) {
  const isMica = (v: Venue) => v.mica_casp.authorised === true;
  const isInstitutional = (v: Venue) =>
    v.institutional_routes.some((r) => table.institutional_routes.includes(r));
  const listing = venues.filter((v) => v.stablecoins_listed.includes(coinId));
  const micaVenues = venues.filter(isMica).length;
  const instVenues = venues.filter(isInstitutional).length;
  const listed = listing.length;
  const micaListed = listing.filter(isMica).length;
  const instListed = listing.filter(isInstitutional).length;
  const share = (n: number, d: number) => (d > 0 ? n / d : 0);
  const w = table.weights;
  const score = Math.round(
    100 *
      (w.listed * share(listed, venues.length) +
        w.mica_authorised_listed * share(micaListed, micaVenues) +
        w.institutional_listed * share(instListed, instVenues)),
  );
  return {
    score,
    venues_total: venues.length,
    venues_listed: listed,
    mica_authorised_venues_total: micaVenues,
    mica_authorised_venues_listed: micaListed,
    institutional_venues_total: instVenues,
    institutional_venues_listed: instListed,
    institutional_routes: [...new Set(listing.flatMap((v) => v.institutional_routes))].sort(),
    listed_on: listing.map((v) => v.id),
  };
}
