// The rule `no-future-dates` (npm run data:check).

import { evidenceOf } from '../../domain/asset.ts';
import { perAsset, reportFutureDates } from './rule.ts';

export const noFutureDates = perAsset('no-future-dates', ({ record }, { today }, report) => {
  const dated: [(string | number)[], string | null | undefined][] = [
    [['as_of'], record.as_of],
    [['amount', 'as_of'], record.amount?.as_of],
    [['dates', 'end_date'], record.dates.end_date],
    ...(record.amount?.history ?? []).map((h, i): [(string | number)[], string] => [
      ['amount', 'history', i, 'as_of'],
      h.as_of,
    ]),
    ...evidenceOf(record.validation).technical.map((e, i): [(string | number)[], string] => [
      ['validation', 'evidence', 'technical', i, 'as_of'],
      e.as_of,
    ]),
    ...record.sources.flatMap((s, i): [(string | number)[], string | null][] => [
      [['sources', i, 'accessed'], s.accessed],
      [['sources', i, 'published'], s.published],
    ]),
  ];
  reportFutureDates(dated, today, report);
  if (record.amount && record.amount.as_of > record.as_of)
    report(
      ['as_of'],
      `is earlier than amount.as_of (${record.amount.as_of})`,
      'as_of is the date of the latest dated fact in the record: raise it',
    );
});
