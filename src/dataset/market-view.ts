// The /v1/market/stablecoins section, built at data build: every coin with its derived figures, the dominance table and
// the 24 venues; optional filters narrow the coin list only (dominance is always of the full set).
import type {
  FxFile,
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
): MarketSection {
  const sorted = [...coins].sort((a, b) => a.id.localeCompare(b.id));
  const d = dominance(sorted, fx);
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
  "One calendar month: the month whose compared coins hold the largest share of the live coins' newest circulating-supply figures (the later month on a tie). Issuers report month-end and quarter-end figures, so one month groups reports of the same period; each coin is compared with its newest figure inside it.";

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
      'Circulating supply (tokens in circulation as the source states them), valued at par in the peg currency and converted to USD at the latest ECB reference rate on or before the figure date. Only live coins with a figure inside the window are compared; shares use largest-remainder rounding to 0.01 percentage points, so they sum to 100.',
    reference_date: d.window?.end ?? null,
    window: d.window ? { ...d.window, rule: WINDOW_RULE } : null,
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
      share_pct: d.shares.get(c.id)!,
      market_cap_usd: c.value_usd,
    })),
    peg_groups: d.pegGroups.map((g) => ({
      currency: g.currency,
      coins_compared: g.coins,
      total: g.total,
      total_usd: g.total_usd,
      share_pct: g.share_pct,
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
