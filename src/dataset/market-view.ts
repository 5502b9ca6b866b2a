// The /v1/market/stablecoins view: every coin with its derived figures, the dominance table and
// the 24 venues; optional filters narrow the coin list only (dominance is always of the full set).
import type {
  FxFile,
  StablecoinRecord,
  StablecoinScoresTable,
  VenuesFile,
} from '../domain/market.ts';
import type { StablecoinView, StablecoinsBody } from '../domain/api-market.ts';
import type { ParamSpec } from './params.ts';
import { FORMAT_PARAM } from './bulk.ts';
import { CHANGED_SINCE_PARAM, lastChanged } from './last-changed.ts';
import { DATASET_VERSION_PARAM } from './version-param.ts';
import { foldText, searchRank, searchText } from './registry-index.ts';
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

export const STABLECOIN_PARAMS: ParamSpec[] = [
  {
    name: 'peg_currency',
    description: 'Peg currency (ISO 4217), e.g. USD, EUR, CHF.',
    pattern: /^[A-Z]{3}$/,
    format: 'an ISO 4217 currency code',
    normalise: (s) => s.trim().toUpperCase(),
    example: 'EUR',
  },
  {
    name: 'mica_classification',
    description: 'MiCA classification of the token; "unclassified" where none is asserted.',
    values: ['emt', 'art', 'not_a_mica_token', 'unclassified'],
    normalise: (s) => s.trim().toLowerCase(),
    example: 'emt',
  },
  {
    name: 'q',
    description:
      'Free text matched against the id, symbol, name, issuer and issuing entity, ignoring case and accents (NFKD, combining marks removed). Results are ranked: a whole field equal to the text first, then a field starting with it, then a word starting with it, then any other match; id order within a rank.',
    maxLength: 100,
    normalise: (s) => foldText(s.trim()),
    example: 'euro',
  },
  {
    name: 'include',
    description:
      'Optional parts of each record: `history` adds `market_cap.history` and `circulating_supply.history` (previous values, each with its date and source). Off by default to keep the body small.',
    values: ['history'],
    normalise: (s) => s.trim().toLowerCase(),
    example: 'history',
  },
  CHANGED_SINCE_PARAM,
  DATASET_VERSION_PARAM,
  FORMAT_PARAM,
];

/** The folded search text of each coin, made once per coin list. */
const coinTexts = new WeakMap<StablecoinView, string>();
function coinText(c: StablecoinView): string {
  let text = coinTexts.get(c);
  if (text === undefined)
    coinTexts.set(
      c,
      (text = searchText([c.id, c.symbol, c.name, c.issuer.name, c.issuer.issuing_entity])),
    );
  return text;
}

export function filterCoins(
  coins: readonly StablecoinView[],
  q: Record<string, string>,
): StablecoinView[] {
  const text = q['q'];
  const kept = coins.filter(
    (c) =>
      (!q['peg_currency'] || c.peg_currency === q['peg_currency']) &&
      (!q['mica_classification'] ||
        (c.mica.classification ?? 'unclassified') === q['mica_classification']) &&
      (!q['changed_since'] || c.last_changed > q['changed_since']) &&
      (!text || coinText(c).includes(text)),
  );
  if (!text) return kept;
  // Ranked like the registry's q=: whole field, field prefix, word prefix, anywhere (stable).
  return kept
    .map((c, i) => ({ c, i, rank: searchRank(coinText(c), text) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.c);
}
