// The rule `codes-known` (npm run data:check).

import { oneOf, perAsset } from './rule.ts';

export const codesKnown = perAsset('codes-known', ({ record }, { codes }, report) => {
  const tficCodes = codes.tfic.classes.flatMap((c) =>
    c.categories.map((k) => `${c.code}.${k.code}`),
  );
  if (!tficCodes.includes(record.tfic))
    report(
      ['tfic'],
      `"${record.tfic}" is not in data/codes/tfic.yaml`,
      oneOf(record.tfic, tficCodes),
    );
  const ledgers = codes.ledgers.ledgers.map((l) => l.code);
  record.ledgers.forEach((l, i) => {
    if (!ledgers.includes(l.ledger))
      report(
        ['ledgers', i, 'ledger'],
        `"${l.ledger}" is not in data/codes/ledgers.yaml`,
        oneOf(l.ledger, ledgers, 'data/codes/ledgers.yaml'),
      );
  });
  const statuses = codes.micaStatus.statuses.map((s) => s.code);
  if (!statuses.includes(record.mica.status))
    report(
      ['mica', 'status'],
      `"${record.mica.status}" is not in data/codes/mica-status.yaml`,
      oneOf(record.mica.status, statuses),
    );
  const custodyFields = [
    ['model', 'custody_model'],
    ['segregation', 'segregation'],
    ['custodian_status', 'custodian_status'],
    ['register', 'register'],
  ] as const;
  for (const [field, table] of custodyFields) {
    const allowed = Object.keys(codes.custody[table]);
    const value = record.custody[field];
    if (!allowed.includes(value))
      report(
        ['custody', field],
        `"${value}" is not in data/codes/custody.yaml (${table})`,
        oneOf(value, allowed),
      );
  }
});
