// The rule `no-future-dates` (npm run data:check).
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, perRecord, reportFutureDates } from './rule.ts';

export const marketDatesNotFuture = perRecord<StablecoinRecord>(
  'no-future-dates',
  coins,
  ({ record }, { today }, report) => {
    const dates: [(string | number)[], string | null][] = [
      [['as_of'], record.as_of],
      [['market_cap', 'as_of'], record.market_cap.as_of],
      [['circulating_supply', 'as_of'], record.circulating_supply.as_of],
      ...record.sources.map((s, i): [(string | number)[], string | null] => [
        ['sources', i, 'published'],
        s.published,
      ]),
    ];
    reportFutureDates(dates, today, report);
  },
);
