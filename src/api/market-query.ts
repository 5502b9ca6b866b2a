// The request half of /v1/market/stablecoins: its parameters and the coin filter (the section
// itself is built with the dataset, dataset/market-view.ts).
import type { StablecoinView } from '../domain/api-market.ts';
import { currencyName } from '../dataset/registry-index.ts';
import { searchIndexes, searchTextProblem, type SearchSpec } from './search.ts';
import type { ParamSpec } from './params.ts';
import { DELIVERY_PARAM, FORMAT_PARAM } from './bulk.ts';
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
    name: 'mica_authorisation',
    description:
      'MiCA authorisation status of the issuer for this token (`mica.authorisation.status`), beside its classification: `authorised`, `not_authorised` or `pending`. "Authorised EUR e-money tokens": `peg_currency=EUR&mica_classification=emt&mica_authorisation=authorised`.',
    values: ['authorised', 'not_authorised', 'pending'],
    normalise: (s) => s.trim().toLowerCase(),
    example: 'authorised',
  },
  {
    name: 'q',
    description:
      'Free text over the id, symbol and name, the issuer and issuing entity, the peg currency (code and name: "euro" finds the EUR coins), backing and MiCA classification, ledger codes and identifiers (DTI, ISIN, issuer LEI, contract addresses). Words are compared folded (case and accents ignored) and by their stem; every word of the query must match a word or the beginning of one; words of six letters or more also match with one letter wrong. At most 8 words (more is a 400); a one-letter word other than the last matches only itself. Results are ranked by relevance, the fields weighted in the order listed, a coin whose id, symbol or name equals the text first; id order on ties.',
    maxLength: 100,
    normalise: (s) => s.trim(),
    example: 'euro',
    check: searchTextProblem,
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
  DELIVERY_PARAM,
];

const words = (values: readonly (string | null | undefined)[]) =>
  values.filter((v): v is string => !!v).join('\n');

const COIN_SEARCH: SearchSpec<StablecoinView> = {
  fields: {
    names: { text: (c) => words([c.id, c.symbol, c.name]), boost: 4 },
    issuer: { text: (c) => words([c.issuer.name, c.issuer.issuing_entity]), boost: 3 },
    kind: {
      text: (c) =>
        words([
          c.peg_currency,
          currencyName(c.peg_currency),
          c.backing?.replaceAll('_', ' '),
          c.mica.classification,
        ]),
      boost: 2,
    },
    ledgers: { text: (c) => c.ledgers.join(' '), boost: 1.5 },
    ids: {
      text: (c) =>
        words([
          c.dti,
          c.isin,
          c.issuer.lei,
          ...(c.ledger_dtis ?? []).map((d) => d.dti),
          ...(c.deployments ?? []).map((d) => d.contract_address),
        ]),
      boost: 1.5,
    },
  },
  whole: (c) => [c.id, c.symbol, c.name],
};
const coinIndex = searchIndexes(COIN_SEARCH);

export function filterCoins(
  coins: readonly StablecoinView[],
  q: Record<string, string>,
): StablecoinView[] {
  const kept = (c: StablecoinView) =>
    (!q['peg_currency'] || c.peg_currency === q['peg_currency']) &&
    (!q['mica_classification'] ||
      (c.mica.classification ?? 'unclassified') === q['mica_classification']) &&
    (!q['mica_authorisation'] || c.mica.authorisation.status === q['mica_authorisation']) &&
    (!q['changed_since'] || c.last_changed > q['changed_since']);
  if (!q['q']) return coins.filter(kept);
  return coinIndex(coins)
    .search(q['q'])
    .map((i) => coins[i]!)
    .filter(kept);
}
