// The request half of /v1/market/stablecoins: its parameters and the coin filter (the section
// itself is built with the dataset, dataset/market-view.ts).
import type { StablecoinView } from '../domain/api-market.ts';
import { foldText, searchRank, searchText } from '../dataset/registry-index.ts';
import type { ParamSpec } from './params.ts';
import { FORMAT_PARAM } from './bulk.ts';
import { CHANGED_SINCE_PARAM } from './changed-since-param.ts';
import { DATASET_VERSION_PARAM } from './version-param.ts';

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
