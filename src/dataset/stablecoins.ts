// Derived stablecoin figures (GTDS 2.1, data/codes/stablecoin-scores.yaml): dominance, MiCA
// compliance rating and institutional adoption. Pure functions; the methodology page states
// each formula and test/data/market.test.ts recomputes them from the YAML.
import type { Source } from '../domain/common.ts';
import type {
  FxFile,
  MarketTotal,
  MarketTotalsFile,
  StablecoinRecord,
  StablecoinScoresTable,
  Venue,
} from '../domain/market.ts';

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

export interface Rate {
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

/** The kind of figure dominance compares: one kind only, so no total adds different kinds. */
export const DOMINANCE_BASIS = 'circulating_supply' as const;

/** One dated value of a coin on the basis (its current figure or a history point). */
export interface BasisPoint {
  value: number;
  as_of: string;
  source: string;
}

/** The `source` of a point summed from the ledgers (ledger_circulating_supply): no document, the chain itself. */
export const LEDGER_SOURCE = 'ledger-read';

/**
 * The coin's circulating supply points, newest first: the current figure, its history, and the
 * sum read from its ledgers when that read every issued deployment (a partial sum is a lower
 * bound, never compared). On the same day the ledger sum comes first.
 */
export function basisPoints(c: StablecoinRecord): BasisPoint[] {
  const f = c[DOMINANCE_BASIS];
  const current =
    f.value !== null && f.as_of && f.source
      ? [{ value: f.value, as_of: f.as_of, source: f.source }]
      : [];
  const ledger = c.ledger_circulating_supply;
  const read =
    ledger?.complete && ledger.value > 0
      ? [{ value: ledger.value, as_of: ledger.as_of, source: LEDGER_SOURCE }]
      : [];
  return [
    ...read,
    ...current,
    ...(f.history ?? []).map((h) => ({ value: h.value, as_of: h.as_of, source: h.source })),
  ].sort((a, b) => b.as_of.localeCompare(a.as_of));
}

/** The date `n` calendar months before `date` (clamped to the month's last day). */
export function monthsBefore(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return `${first.toISOString().slice(0, 8)}${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * A later window is preferred while its coverage stays within this many percentage points of the
 * best coverage any window reaches: recency and coverage together.
 */
export const COVERAGE_TOLERANCE_POINTS = 5;
/** A comparison whose window ended more than this many months before the dataset date is labelled. */
export const OUTDATED_AFTER_MONTHS = 8;

export interface ComparedCoin {
  id: string;
  peg: string;
  point: BasisPoint;
  value_usd: number;
  rate: Rate;
}

export interface NotComparable {
  id: string;
  reason: string;
  /** The coin's newest figure on the basis, when it has one. */
  latest: BasisPoint | null;
  latest_usd: number | null;
}

/** The whole-market total a comparison is measured against. */
export interface ChosenTotal {
  total: MarketTotal;
  source: Source | null;
}

export interface Dominance {
  window: { start: string; end: string } | null;
  compared: ComparedCoin[];
  /** Share of the compared set (sums to 100). */
  shares: Map<string, number>;
  /** Share of the whole market total; absent for a coin outside the total's scope. */
  marketShares: Map<string, number>;
  sharesWithinPeg: Map<string, number>;
  notComparable: NotComparable[];
  notLive: StablecoinRecord[];
  /** Pegs in display order with the compared coins' totals, and each peg's share of the compared total (null: none compared). */
  pegGroups: {
    currency: string;
    coins: number;
    total: number;
    total_usd: number;
    share_pct: number | null;
  }[];
  /** The compared coins' share of the live coins' newest figures (summed in USD), in %. */
  coveredSharePct: number | null;
  /** The whole-market total dated inside the window, or null with the reason. */
  marketTotal: ChosenTotal | null;
  marketTotalNullReason: string | null;
  /** The compared coins (inside the total's scope) as a share of the market total, in %. */
  coverageOfMarketPct: number | null;
  /** Why the comparison is old, when its window ended more than eight months before the dataset date. */
  outdatedNote: string | null;
}

const toUsd = (value: number, rate: Rate) => Math.round(value * rate.rate);

/** The newest point of `c` inside the window, converted to USD at the rate of its date. */
function inWindow(c: StablecoinRecord, fx: FxFile | null, window: { start: string; end: string }) {
  const point = basisPoints(c).find((p) => p.as_of >= window.start && p.as_of <= window.end);
  if (!point) return { point: null, rate: null };
  return { point, rate: usdRate(fx, c.peg_currency, point.as_of) };
}

/** The calendar quarter holding `date`: its first and last day (90 to 92 days). */
export function quarterOf(date: string): { start: string; end: string } {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const q = Math.floor((m - 1) / 3);
  const start = `${y}-${String(q * 3 + 1).padStart(2, '0')}-01`;
  const end = new Date(Date.UTC(y, q * 3 + 3, 0)).toISOString().slice(0, 10);
  return { start, end };
}

/** Days in a window, both ends counted. */
export const windowDays = (w: { start: string; end: string }) => days(w.start, w.end) + 1;

/**
 * The window: one calendar quarter (issuers report month-end and quarter-end figures, so a
 * quarter groups reports of the same period). Every quarter in which a live coin has a figure is
 * a candidate; its coverage is the share of the live coins' newest figures (in USD) held by the
 * coins with a figure inside it. The latest candidate whose coverage is within 5 points of the
 * best coverage is chosen (a later comparison is preferred unless it covers clearly less).
 */
export function chooseWindow(
  live: readonly StablecoinRecord[],
  fx: FxFile | null,
  newestUsd: ReadonlyMap<string, number>,
): { start: string; end: string } | null {
  const all = [...newestUsd.values()].reduce((n, v) => n + v, 0);
  const quarters = [
    ...new Set(live.flatMap((c) => basisPoints(c).map((p) => quarterOf(p.as_of).start))),
  ].sort();
  const scored = quarters.map((start) => {
    const window = quarterOf(start);
    const weight = live.reduce((n, c) => {
      const { point, rate } = inWindow(c, fx, window);
      return point && rate ? n + (newestUsd.get(c.id) ?? 0) : n;
    }, 0);
    return { window, coverage: all > 0 ? (weight / all) * 100 : 0 };
  });
  const best = Math.max(...scored.map((s) => s.coverage));
  return (
    scored.filter((s) => s.coverage >= best - COVERAGE_TOLERANCE_POINTS).at(-1)?.window ?? null
  );
}

const usdBn = (v: number) => `US$${(v / 1e9).toFixed(1)} bn`;

/** The newest whole-market total dated inside the window (by date, then id). */
function chooseTotal(
  totals: MarketTotalsFile | null,
  window: { start: string; end: string } | null,
): { chosen: ChosenTotal | null; reason: string | null } {
  if (!window)
    return { chosen: null, reason: 'No coin is compared, so no market share is served.' };
  const all = totals?.totals ?? [];
  const inside = all
    .filter((t) => t.as_of >= window.start && t.as_of <= window.end)
    .sort((a, b) => b.as_of.localeCompare(a.as_of) || a.id.localeCompare(b.id));
  const total = inside[0];
  if (total)
    return {
      chosen: { total, source: totals!.sources.find((s) => s.id === total.source) ?? null },
      reason: null,
    };
  const nearest = [...all].sort(
    (a, b) =>
      Math.abs(Date.parse(a.as_of) - Date.parse(window.end)) -
      Math.abs(Date.parse(b.as_of) - Date.parse(window.end)),
  )[0];
  return {
    chosen: null,
    reason: `No dated total of the whole stablecoin market falls inside the window (${window.start} to ${window.end}), so no share of the market is served: shares are of the compared coins only.${nearest ? ` The nearest known total is ${usdBn(nearest.value_usd)} on ${nearest.as_of}.` : ''}`,
  };
}

/**
 * Each live coin compared at its newest figure inside the window, or set apart with the reason it
 * is not comparable (no figure, none inside the window, no rate to convert it).
 */
function compareInWindow(
  live: readonly StablecoinRecord[],
  fx: FxFile | null,
  window: { start: string; end: string } | null,
): { compared: ComparedCoin[]; notComparable: NotComparable[] } {
  const compared: ComparedCoin[] = [];
  const notComparable: NotComparable[] = [];
  for (const c of live) {
    const latest = basisPoints(c)[0] ?? null;
    const latestRate = latest ? usdRate(fx, c.peg_currency, latest.as_of) : null;
    const outside = (reason: string) =>
      notComparable.push({
        id: c.id,
        reason,
        latest,
        latest_usd: latest && latestRate ? toUsd(latest.value, latestRate) : null,
      });
    if (!latest) {
      outside(
        `No circulating supply is known for this coin${c[DOMINANCE_BASIS].value_null_reason ? `: ${c[DOMINANCE_BASIS].value_null_reason}` : '.'}`,
      );
      continue;
    }
    const { point, rate } = inWindow(c, fx, window!);
    if (!point) {
      outside(
        `Not comparable at this date: its newest circulating supply is dated ${latest.as_of}, outside the window (${window!.start} to ${window!.end}).`,
      );
      continue;
    }
    if (!rate) {
      outside(
        `Not comparable at this date: no ECB ${c.peg_currency}/USD reference rate within ${FX_MAX_AGE_DAYS} days before ${point.as_of} converts its figure.`,
      );
      continue;
    }
    compared.push({
      id: c.id,
      peg: c.peg_currency,
      point,
      value_usd: toUsd(point.value, rate),
      rate,
    });
  }
  return { compared, notComparable };
}

/** The compared coins grouped by peg currency, and each coin's share within its peg. */
function pegGroups(coins: readonly StablecoinRecord[], compared: readonly ComparedCoin[]) {
  const sharesWithinPeg = new Map<string, number>();
  const pegs = pegCurrencies(coins);
  const groups = pegs.map((currency) => {
    const inPeg = compared.filter((c) => c.peg === currency);
    percentShares(inPeg.map((c) => c.point.value)).forEach((s, i) =>
      sharesWithinPeg.set(inPeg[i]!.id, s),
    );
    return {
      currency,
      coins: inPeg.length,
      total: inPeg.reduce((n, c) => n + c.point.value, 0),
      total_usd: inPeg.reduce((n, c) => n + c.value_usd, 0),
    };
  });
  return { groups, sharesWithinPeg };
}

/** Each compared coin's share of the chosen whole-market total, and the share they cover. */
function sharesOfMarket(compared: readonly ComparedCoin[], chosen: ChosenTotal | null) {
  const marketShares = new Map<string, number>();
  let coverageOfMarketPct: number | null = null;
  if (chosen) {
    const inScope = compared.filter(
      (c) => chosen.total.scope === 'all_stablecoins' || c.peg === 'USD',
    );
    for (const c of inScope)
      marketShares.set(c.id, Math.round((c.value_usd / chosen.total.value_usd) * 10_000) / 100);
    const sum = inScope.reduce((n, c) => n + c.value_usd, 0);
    coverageOfMarketPct = Math.round((sum / chosen.total.value_usd) * 1000) / 10;
  }
  return { marketShares, coverageOfMarketPct };
}

/**
 * Dominance on one basis (circulating supply at par, in USD): the window is chosen by coverage and
 * recency together (chooseWindow); each live coin is compared with its newest figure inside it,
 * the others keep their own figure and date and say why they are not comparable. Coins that are
 * not live are left out. Each compared coin's share of the compared set and, where a whole-market
 * total is dated inside the window, its share of that total.
 */
export function dominance(
  coins: readonly StablecoinRecord[],
  fx: FxFile | null,
  totals: MarketTotalsFile | null = null,
  datasetDate: string | null = null,
): Dominance {
  const live = coins.filter((c) => c.status.value === 'live');
  const notLive = coins.filter((c) => c.status.value !== 'live');
  // Each coin weighs what its newest figure weighs, whatever the date: a window is not preferred
  // because the market was larger then, only because more of today's market has a figure in it.
  const newestUsd = new Map(
    live.flatMap((c) => {
      const latest = basisPoints(c)[0];
      const rate = latest && usdRate(fx, c.peg_currency, latest.as_of);
      return latest && rate ? [[c.id, toUsd(latest.value, rate)] as const] : [];
    }),
  );
  const window = chooseWindow(live, fx, newestUsd);
  const { compared, notComparable } = compareInWindow(live, fx, window);
  compared.sort((a, b) => b.value_usd - a.value_usd || a.id.localeCompare(b.id));
  const shares = new Map<string, number>();
  percentShares(compared.map((c) => c.value_usd)).forEach((s, i) => shares.set(compared[i]!.id, s));
  const { groups, sharesWithinPeg } = pegGroups(coins, compared);
  const groupShares = percentShares(groups.map((g) => g.total_usd));
  const allNewest = [...newestUsd.values()].reduce((n, v) => n + v, 0);
  const comparedNewest = compared.reduce((n, c) => n + (newestUsd.get(c.id) ?? 0), 0);

  const { chosen, reason } = chooseTotal(totals, window);
  const { marketShares, coverageOfMarketPct } = sharesOfMarket(compared, chosen);
  const outdated =
    window && datasetDate && window.end < monthsBefore(datasetDate, OUTDATED_AFTER_MONTHS)
      ? `Outdated comparison: its figures are dated ${window.start} to ${window.end}, more than ${OUTDATED_AFTER_MONTHS} months before the dataset date (${datasetDate}). No later window holds figures for as much of the market.`
      : null;
  return {
    window,
    compared,
    shares,
    marketShares,
    sharesWithinPeg,
    notComparable,
    notLive,
    pegGroups: groups.map((g, i) => ({ ...g, share_pct: g.coins > 0 ? groupShares[i]! : null })),
    coveredSharePct: allNewest > 0 ? Math.round((comparedNewest / allNewest) * 1000) / 10 : null,
    marketTotal: chosen,
    marketTotalNullReason: reason,
    coverageOfMarketPct,
    outdatedNote: outdated,
  };
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
