// The /v1/market/stablecoins section, built at data build: every coin with its derived figures, the dominance table and
// the 24 venues; optional filters narrow the coin list only (dominance is always of the full set).
import type {
  FxFile,
  StablecoinRecord,
  StablecoinScoresTable,
  VenuesFile,
} from '../domain/market.ts';
import type { StablecoinView, StablecoinsBody } from '../domain/api-market.ts';
import { lastChanged } from './last-changed.ts';
import { adoption, complianceRating, dominance, pegCurrencies, usdRate } from './stablecoins.ts';
import { daysBetween } from './figures.ts';

/** A stablecoin figure as served: its age at the dataset date, its history (empty when none). */
function servedFigure<F extends StablecoinRecord['market_cap']>(figure: F, datasetDate: string) {
  return {
    ...figure,
    age_days: daysBetween(figure.as_of, datasetDate),
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
): MarketSection {
  const sorted = [...coins].sort((a, b) => a.id.localeCompare(b.id));
  const { entries } = dominance(sorted, fx);
  const views: StablecoinView[] = sorted.map((c) => {
    const d = entries.get(c.id)!;
    const rate =
      c.market_cap.value === null ? null : usdRate(fx, c.peg_currency, c.market_cap.as_of);
    return {
      ...c,
      market_cap: {
        ...servedFigure(c.market_cap, datasetDate),
        value_usd: d.market_cap_usd,
        fx: rate && c.peg_currency !== 'USD' ? rate : null,
      },
      circulating_supply: servedFigure(c.circulating_supply, datasetDate),
      dominance: {
        share_of_named_set_pct: d.share_of_named_set_pct,
        share_within_peg_pct: d.share_within_peg_pct,
        excluded_reason: d.excluded_reason,
      },
      compliance_rating: complianceRating(c, table.compliance_rating),
      adoption: adoption(c.id, venues.venues, table.adoption),
      last_changed: lastChanged(c),
    };
  });
  const ranked = views
    .filter((v) => v.dominance.share_of_named_set_pct !== null)
    .sort((a, b) => b.market_cap.value_usd! - a.market_cap.value_usd!);
  const byPeg = (peg: string) =>
    views
      .filter((v) => v.peg_currency === peg && v.dominance.share_within_peg_pct !== null)
      .sort((a, b) => b.market_cap.value! - a.market_cap.value!)
      .map((v) => ({
        id: v.id,
        symbol: v.symbol,
        market_cap: v.market_cap.value!,
        share_pct: v.dominance.share_within_peg_pct!,
      }));
  const asOf = [venues.as_of, ...coins.map((c) => c.as_of)].sort().at(-1)!;
  return {
    as_of: asOf,
    scores_version: table.version,
    coins: views,
    dominance: {
      basis:
        'Share of the summed market capitalisation of the named stablecoins with a dated figure; EUR caps converted at the latest ECB reference rate on or before the cap date. Largest-remainder rounding to 0.01 percentage points, so shares sum to 100.',
      total_market_cap_usd: ranked.reduce((n, v) => n + v.market_cap.value_usd!, 0),
      overall: ranked.map((v) => ({
        id: v.id,
        symbol: v.symbol,
        market_cap_usd: v.market_cap.value_usd!,
        share_pct: v.dominance.share_of_named_set_pct!,
      })),
      by_peg: Object.fromEntries(pegCurrencies(sorted).map((peg) => [peg, byPeg(peg)])),
      excluded: views
        .filter((v) => v.dominance.excluded_reason)
        .map((v) => ({ id: v.id, reason: v.dominance.excluded_reason! })),
    },
    venues: venues.venues,
  };
}
