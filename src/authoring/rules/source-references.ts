// The rule `source-references` (npm run data:check).

import { perAsset } from './rule.ts';

export const sourceReferences = perAsset('source-references', ({ record }, _ctx, report) => {
  const ids = new Set<string>();
  record.sources.forEach((s, i) => {
    if (ids.has(s.id))
      report(
        ['sources', i, 'id'],
        `repeats the source id "${s.id}"`,
        'give every source in the file its own id',
      );
    ids.add(s.id);
  });
  if (record.amount && !ids.has(record.amount.source))
    report(
      ['amount', 'source'],
      `names "${record.amount.source}", which is not a source of this record`,
      `use one of: ${[...ids].join(', ')}`,
    );
});
