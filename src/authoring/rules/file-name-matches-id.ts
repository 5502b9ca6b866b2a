// The rule `file-name-matches-id` (npm run data:check).
import type { AssetRecord } from '../../domain/asset.ts';
import { assetsOf, namedAfter } from './rule.ts';

export const fileNameMatchesId = namedAfter<AssetRecord>('file-name-matches-id', assetsOf, 'tfin');
