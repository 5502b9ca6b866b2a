// The rule `member-state-counts-match-register` (npm run data:check).
import { registerCounts, type CountField } from '../../dataset/mica-counts.ts';
import { micaRule } from './rule.ts';

const ESMA_FILE: Record<CountField, [register: string, esma: string, what: string]> = {
  authorised_casps: ['casps', 'CASPS.csv', 'authorised CASPs (withdrawn excluded)'],
  emt_issuers: ['emt', 'EMTWP.csv', 'EMT issuers'],
  art_issuers: ['art', 'ARTZZ.csv', 'ART issuers'],
};

export const countsMatchRegister = micaRule(
  'member-state-counts-match-register',
  ({ mica }, report) => {
    const r = mica.register;
    const counts = registerCounts({
      casps: r.casps?.record ?? null,
      emt: r.emt?.record ?? null,
      art: r.art?.record ?? null,
    });
    for (const { file, record, schemaFailed } of mica.memberStates) {
      if (schemaFailed) continue;
      for (const field of Object.keys(ESMA_FILE) as CountField[]) {
        const derived = counts[field];
        if (!derived) continue;
        const expected = derived.get(record.iso) ?? 0;
        const [register, esma, what] = ESMA_FILE[field];
        if (record[field] !== expected)
          report(
            file,
            [field],
            `is ${record[field]}, but data/mica/register/${register}.yaml lists ${expected} ${what} with home member state ${record.iso}`,
            `set it to ${expected}: run npm run data:import -- esma --file <ESMA's ${esma}> --write, which writes both`,
          );
      }
    }
  },
);
