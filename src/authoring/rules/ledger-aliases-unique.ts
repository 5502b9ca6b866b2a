// The rule `ledger-aliases-unique` (npm run data:check): a source's chain key names one ledger,
// or an importer could not tell which ledger a contract of that chain is on.
import { ledgerTableRule, reportRepeats } from './rule.ts';

export const ledgerAliasesUnique = ledgerTableRule('ledger-aliases-unique', (ledgers, report) =>
  reportRepeats(
    ledgers,
    (l) =>
      Object.entries(l.aliases ?? {}).flatMap(([source, keys]) =>
        keys.map((key, j): [string, (string | number)[]] => [
          `${source} key "${key}"`,
          ['aliases', source, j],
        ]),
      ),
    (alias, first) => `${alias} already names ${first.code} (${first.name})`,
    "a source's chain key names one ledger: keep it on the one ledger it stands for and remove it from the other",
    report,
  ),
);
