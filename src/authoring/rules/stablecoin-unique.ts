// The rule `stablecoin-unique` (npm run data:check).
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, uniqueBy } from './rule.ts';

export const stablecoinUnique = uniqueBy<StablecoinRecord>(
  'stablecoin-unique',
  coins,
  (r) => r.symbol?.toUpperCase(),
  ['symbol'],
  (first) => `repeats the symbol of ${first}`,
  'one file per stablecoin: merge the two files',
);
