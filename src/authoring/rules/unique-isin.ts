// The rule `unique-isin` (npm run data:check).
import type { AssetRecord } from '../../domain/asset.ts';
import { assetsOf, uniqueBy } from './rule.ts';

export const uniqueIsin = uniqueBy<AssetRecord>(
  'unique-isin',
  assetsOf,
  (r) => r.identifiers?.isin,
  ['identifiers', 'isin'],
  (first) => `is already mapped to ${first}`,
  'one ISIN maps to one registry record: merge the records or correct the ISIN',
);
