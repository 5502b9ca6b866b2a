// The rule `fx-references` (npm run data:check).
import type { FxFile } from '../../domain/market.ts';
import { fxFile, perRecord } from './rule.ts';

export const fxReferences = perRecord<FxFile>(
  'fx-references',
  fxFile,
  ({ record }, _ctx, report) => {
    const ids = new Set(record.sources.map((s) => s.id));
    record.rates.forEach((r, i) => {
      if (!ids.has(r.source))
        report(
          ['rates', i, 'source'],
          `names "${r.source}", which is not a source in this file`,
          `use one of: ${[...ids].join(', ')}`,
        );
    });
  },
);
