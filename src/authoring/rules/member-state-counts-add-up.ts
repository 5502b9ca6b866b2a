// The rule `member-state-counts-add-up` (npm run data:check).

import { EU_MEMBER_STATES } from './shared.ts';
import { micaRule } from './rule.ts';

/** Per-state counts must add up to the EU totals when both describe the same date. */
export const countsAddUp = micaRule('member-state-counts-add-up', ({ mica }, report) => {
  const cats = mica.categories;
  if (!cats) return;
  const fields = {
    EMT: 'emt_issuers',
    ART: 'art_issuers',
    CASP: 'authorised_casps',
    DLT_PILOT: 'dlt_pilot_infrastructures',
  } as const;
  cats.record.categories.forEach((c, i) => {
    const states = mica.memberStates.filter(
      (s) => s.record.counts_as_of === c.authorised_entities.as_of,
    );
    if (states.length !== EU_MEMBER_STATES) return;
    const sum = states.reduce((n, s) => n + s.record[fields[c.code]], 0);
    if (sum !== c.authorised_entities.count) {
      report(
        cats.file,
        ['categories', i, 'authorised_entities', 'count'],
        `is ${c.authorised_entities.count} but the member-state files add up to ${sum} for ${c.authorised_entities.as_of}`,
        `correct the EU total or the per-state ${fields[c.code]}`,
      );
    }
  });
});
