// The /v1/market/stablecoins section, built at data build: every coin with its derived figures, the dominance table and
// the 24 venues; optional filters narrow the coin list only (dominance is always of the full set).
import type {
  FxFile,
  MarketTotalsFile,
  StablecoinRecord,
  StablecoinScoresTable,
  VenuesFile,
} from '../domain/market.ts';
import type { StablecoinView, StablecoinsBody } from '../domain/api-market.ts';
import { coinLastChanged } from './last-changed.ts';
import {
  adoption,
  complianceRating,
  dominance,
  pegCurrencies,
  usdRate,
  windowDays,
  type Dominance,
} from './stablecoins.ts';
import { daysBetween } from './figures.ts';
import { isPastMaxAge, type MaxAgeDays } from './freshness.ts';

/**
 * A stablecoin figure as served: its age at the dataset date and whether that is past its kind's
 * maximum age (neither without a figure), its history.
 */
function servedFigure<F extends StablecoinRecord['market_cap']>(
  figure: F,
  kind: 'market_cap' | 'circulating_supply',
  datasetDate: string,
  maxAge: MaxAgeDays,
) {
  return {
    ...figure,
    age_days: figure.as_of === null ? null : daysBetween(figure.as_of, datasetDate),
    stale: figure.as_of !== null && isPastMaxAge(kind, figure.as_of, datasetDate, maxAge),
    stale_reason: figure.stale_reason ?? null,
    history: figure.history ?? [],
  };
}

export interface MarketSection {
  as_of: string;
  scores_version: string;
  coins: StablecoinView[];
  dominance: StablecoinsBody['data']['dominance'];
  venues: VenuesFile['venues'];
}

export function buildMarketSection(
  coins: StablecoinRecord[],
  venues: VenuesFile,
  fx: FxFile | null,
  table: StablecoinScoresTable,
  datasetDate: string,
  maxAge: MaxAgeDays,
  totals: MarketTotalsFile | null = null,
): MarketSection {
  const sorted = [...coins].sort((a, b) => a.id.localeCompare(b.id));
  const d = dominance(sorted, fx, totals, datasetDate);
  const compared = new Map(d.compared.map((c) => [c.id, c]));
  const outside = new Map(d.notComparable.map((c) => [c.id, c.reason]));
  const views: StablecoinView[] = sorted.map((c) => {
    const rate =
      c.market_cap.value === null || c.market_cap.as_of === null
        ? null
        : usdRate(fx, c.peg_currency, c.market_cap.as_of);
    const inComparison = compared.get(c.id);
    return {
      ...c,
      market_cap: {
        ...servedFigure(c.market_cap, 'market_cap', datasetDate, maxAge),
        value_usd:
          rate && c.market_cap.value !== null ? Math.round(c.market_cap.value * rate.rate) : null,
        fx: rate && c.peg_currency !== 'USD' ? rate : null,
      },
      circulating_supply: servedFigure(
        c.circulating_supply,
        'circulating_supply',
        datasetDate,
        maxAge,
      ),
      dominance: withV1Aliases({
        compared: inComparison !== undefined,
        basis_as_of: inComparison?.point.as_of ?? null,
        market_share_pct: d.marketShares.get(c.id) ?? null,
        share_of_compared_pct: d.shares.get(c.id) ?? null,
        share_within_peg_pct: d.sharesWithinPeg.get(c.id) ?? null,
        not_comparable_reason: inComparison ? null : (outside.get(c.id) ?? notLiveReason(c)),
      }),
      compliance_rating: complianceRating(c, table.compliance_rating),
      adoption: adoption(c.id, venues.venues, table.adoption),
      last_changed: coinLastChanged(c),
    };
  });
  const asOf = [venues.as_of, ...coins.map((c) => c.as_of)].sort().at(-1)!;
  return {
    as_of: asOf,
    scores_version: table.version,
    coins: views,
    dominance: dominanceSection(d, sorted),
    venues: venues.venues,
  };
}

/** The v1 names the per-coin dominance had before the comparison was put on one basis. */
function withV1Aliases<
  T extends { share_of_compared_pct: number | null; not_comparable_reason: string | null },
>(current: T) {
  return {
    ...current,
    share_of_named_set_pct: current.share_of_compared_pct,
    excluded_reason: current.not_comparable_reason,
  };
}

const STATUS_WORDS = {
  depegged: 'has lost its peg',
  wound_down: 'has been wound down',
  inactive: 'is listed as inactive',
};

/** Why a coin that is not live is left out of totals and shares. */
function notLiveReason(c: StablecoinRecord): string {
  const status = c.status.value as keyof typeof STATUS_WORDS;
  return `Left out of totals and shares: the coin ${STATUS_WORDS[status]}${c.status.since ? ` since ${c.status.since}` : ''} (${c.status.basis}).`;
}

export const WINDOW_RULE =
  "One calendar quarter (90 to 92 days: issuers report month-end and quarter-end figures, so a quarter groups reports of the same period). Every quarter in which a live coin has a circulating supply is a candidate; its coverage is the share of the live coins' newest figures (in USD) held by the coins with a figure inside it. The latest quarter whose coverage is within 5 percentage points of the best coverage any quarter reaches is chosen, so a later comparison wins unless it covers clearly less of the market. Each coin is compared with its newest figure inside the window; the market total is the newest one dated inside it.";

const bn = (v: number) => `US$${(v / 1e9).toFixed(1)} bn`;
const KIND_WORDS = {
  issuer_sum: "issuers' reports added up",
  aggregator_total: "an aggregator's total",
  ledger_sum: 'a sum read from the ledgers',
};

/** The comparison in words a reader cannot take for something else. */
function summaryOf(d: Dominance, live: number): string {
  if (!d.window) return 'No live coin has a dated circulating supply, so no comparison is made.';
  const q = Math.floor(Number(d.window.start.slice(5, 7)) / 3) + 1;
  const set = `${d.compared.length} of ${live} live stablecoins are compared, each on its newest circulating supply dated in the window ${d.window.start} to ${d.window.end} (quarter ${q} of ${d.window.start.slice(0, 4)})`;
  const comparedUsd = d.compared.reduce((n, c) => n + c.value_usd, 0);
  if (!d.marketTotal)
    return `${set}, summing to ${bn(comparedUsd)}. ${d.marketTotalNullReason}${d.outdatedNote ? ` ${d.outdatedNote}` : ''}`;
  const t = d.marketTotal.total;
  const relay =
    d.marketTotal.source?.kind === 'news'
      ? `, as relayed by ${d.marketTotal.source.publisher}`
      : '';
  const scope =
    t.scope === 'usd_pegged' ? 'the USD-pegged stablecoin market' : 'the whole stablecoin market';
  return `${set}, summing to ${bn(comparedUsd)}. ${scope[0]!.toUpperCase()}${scope.slice(1)} was ${bn(t.value_usd)} on ${t.as_of} (${KIND_WORDS[t.kind]} by ${t.counted_by}${relay}); the compared coins hold ${d.coverageOfMarketPct} % of it, and each coin's market share is of that total.${d.outdatedNote ? ` ${d.outdatedNote}` : ''}`;
}

/** The market total as served: its figure, how it was counted, its source. */
function servedTotal(d: Dominance) {
  if (!d.marketTotal) return null;
  const { total: t, source: s } = d.marketTotal;
  return {
    id: t.id,
    value_usd: t.value_usd,
    as_of: t.as_of,
    kind: t.kind,
    scope: t.scope,
    measure: t.measure,
    counted_by: t.counted_by,
    precision: t.precision ?? null,
    source: {
      id: t.source,
      kind: s?.kind ?? 'unknown',
      title: s?.title ?? t.source,
      publisher: s?.publisher ?? t.source,
      url: s?.url ?? '',
      published: s?.published ?? null,
      secondary_reason: s?.secondary_reason ?? null,
    },
    stated_split: (t.stated_split ?? []).map((x) => ({
      id: x.coin,
      value_usd: x.value_usd,
      share_pct: x.share_pct,
    })),
  };
}

function dominanceSection(
  d: Dominance,
  coins: readonly StablecoinRecord[],
): StablecoinsBody['data']['dominance'] {
  const byId = new Map(coins.map((c) => [c.id, c]));
  const live = coins.filter((c) => c.status.value === 'live');
  const totalUsd = d.compared.reduce((n, c) => n + c.value_usd, 0);
  return {
    basis_kind: 'circulating_supply',
    basis:
      "Circulating supply (tokens in circulation as the source states them), valued at par in the peg currency and converted to USD at the latest ECB reference rate on or before the figure date. Only live coins with a figure inside the window are compared. market_share_pct is a coin's value over the dated market total of the window (rounded to 0.01); share_of_compared_pct is its share of the compared coins only, with largest-remainder rounding to 0.01 percentage points, so those sum to 100.",
    reference_date: d.window?.end ?? null,
    window: d.window ? { ...d.window, days: windowDays(d.window), rule: WINDOW_RULE } : null,
    summary: summaryOf(d, live.length),
    outdated_note: d.outdatedNote,
    market_total: servedTotal(d),
    market_total_null_reason: d.marketTotalNullReason,
    coverage_of_market_pct: d.coverageOfMarketPct,
    compared_total_usd: totalUsd,
    total_usd: totalUsd,
    total_market_cap_usd: totalUsd,
    covered_share_pct: d.coveredSharePct,
    coins_live: live.length,
    coins_compared: d.compared.length,
    coins_without_figure: d.notComparable.filter((c) => c.latest === null).length,
    overall: d.compared.map((c) => ({
      id: c.id,
      symbol: byId.get(c.id)!.symbol,
      peg_currency: c.peg,
      circulating_supply: c.point.value,
      as_of: c.point.as_of,
      source: c.point.source,
      value_usd: c.value_usd,
      market_share_pct: d.marketShares.get(c.id) ?? null,
      share_of_compared_pct: d.shares.get(c.id)!,
      share_pct: d.shares.get(c.id)!,
      market_cap_usd: c.value_usd,
    })),
    peg_groups: d.pegGroups.map((g) => ({
      currency: g.currency,
      coins_compared: g.coins,
      total: g.total,
      total_usd: g.total_usd,
      share_pct: g.share_pct,
      not_compared_reason:
        g.coins > 0
          ? null
          : `Not compared: no live ${g.currency}-pegged coin has a circulating supply inside the window.`,
    })),
    by_peg: Object.fromEntries(
      pegCurrencies(coins).map((peg) => [
        peg,
        d.compared
          .filter((c) => c.peg === peg)
          .sort((a, b) => b.point.value - a.point.value || a.id.localeCompare(b.id))
          .map((c) => ({
            id: c.id,
            symbol: byId.get(c.id)!.symbol,
            circulating_supply: c.point.value,
            as_of: c.point.as_of,
            share_pct: d.sharesWithinPeg.get(c.id)!,
            market_cap: c.point.value,
          })),
      ]),
    ),
    not_comparable: d.notComparable.map((c) => ({
      id: c.id,
      symbol: byId.get(c.id)!.symbol,
      reason: c.reason,
      circulating_supply: c.latest?.value ?? null,
      as_of: c.latest?.as_of ?? null,
    })),
    excluded: [
      ...d.notComparable.map((c) => ({ id: c.id, reason: c.reason })),
      ...d.notLive.map((c) => ({ id: c.id, reason: notLiveReason(c) })),
    ],
    not_live: d.notLive.map((c) => ({
      id: c.id,
      symbol: c.symbol,
      status: c.status.value as 'depegged' | 'wound_down' | 'inactive',
      since: c.status.since,
      reason: notLiveReason(c),
    })),
  };
}
