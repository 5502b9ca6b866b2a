// The rule `unique-tfin` (npm run data:check).
import type { AssetRecord } from '../../domain/asset.ts';
import { assetsOf, uniqueBy } from './rule.ts';

export const uniqueTfin = uniqueBy<AssetRecord>(
  'unique-tfin',
  assetsOf,
  (r) => (typeof r.tfin === 'string' ? r.tfin.toUpperCase() : null),
  ['tfin'],
  (first) => `repeats the ID already used by ${first}`,
  'give this asset the next free sequence number',
);
