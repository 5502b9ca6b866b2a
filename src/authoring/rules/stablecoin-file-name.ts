// The rule `stablecoin-file-name` (npm run data:check).
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, namedAfter } from './rule.ts';

export const stablecoinFileName = namedAfter<StablecoinRecord>('stablecoin-file-name', coins, 'id');
