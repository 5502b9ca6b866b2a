// The rule `ledger-codes-unique` (npm run data:check): a ledger code names one ledger.
import { ledgerTableRule, reportRepeats } from './rule.ts';

export const ledgerCodesUnique = ledgerTableRule('ledger-codes-unique', (ledgers, report) =>
  reportRepeats(
    ledgers,
    (l) => [[l.code, ['code']]],
    (code, first) => `"${code}" is already the code of ${first.name}`,
    'one code per ledger: give this ledger an unused 3-letter code, or merge the two entries',
    report,
  ),
);
