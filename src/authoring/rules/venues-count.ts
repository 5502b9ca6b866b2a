// The rule `venues-count` (npm run data:check).
import type { VenuesFile } from '../../domain/market.ts';
import { perRecord, venuesFile } from './rule.ts';

export const VENUE_COUNT = 24;

export const venuesCount = perRecord<VenuesFile>(
  'venues-count',
  venuesFile,
  ({ record }, _ctx, report) => {
    if (record.venues.length !== VENUE_COUNT)
      report(
        ['venues'],
        `lists ${record.venues.length} venues`,
        `the adoption measure covers exactly ${VENUE_COUNT} venues: add or remove venues`,
      );
  },
);
