// The rule `stablecoin-unique` (npm run data:check): one file per token. A ticker names one token
// per issuer: two white papers for one ticker by two issuers are two offers, two records (each
// with its issuer), while the same ticker twice for one issuer is one token written twice.
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, uniqueBy } from './rule.ts';

export const stablecoinUnique = uniqueBy<StablecoinRecord>(
  'stablecoin-unique',
  coins,
  (r) =>
    r.symbol &&
    `${r.symbol.toUpperCase()}|${r.issuer.lei ?? r.issuer.issuing_entity ?? r.issuer.name}`,
  ['symbol'],
  (first) => `repeats the symbol and issuer of ${first}`,
  'one file per stablecoin: merge the two files',
);
