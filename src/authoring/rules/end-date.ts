// The rule `end-date` (npm run data:check).
import type { AssetRecord } from '../../domain/asset.ts';
import { perRecord } from './rule.ts';

const ENDED = new Set(['matured', 'redeemed', 'closed']);

export const endDateForEndedAssets = perRecord<AssetRecord>(
  'end-date',
  (ctx) => ctx.assets,
  ({ record }, ctx, report) => {
    const end = record.dates.end_date ?? null;
    if (ENDED.has(record.lifecycle_status) && !end)
      report(
        ['dates', 'end_date'],
        `is required: the asset is ${record.lifecycle_status}`,
        'give the date it matured, was redeemed or closed (operating history ends there)',
      );
    if (!ENDED.has(record.lifecycle_status) && end)
      report(
        ['dates', 'end_date'],
        `is given for an asset that is ${record.lifecycle_status}`,
        'remove end_date, or set lifecycle_status to matured, redeemed or closed',
      );
    if (end && record.dates.launch_date && end < record.dates.launch_date)
      report(
        ['dates', 'end_date'],
        `is before dates.launch_date (${record.dates.launch_date})`,
        'correct the date',
      );
    if (end && end > ctx.datasetDate)
      report(
        ['dates', 'end_date'],
        `is after the dataset date ${ctx.datasetDate}`,
        'an asset that has not ended yet is active: correct the status or the date',
      );
  },
);
