// The rule `jurisdictions` (npm run data:check).

import { EU_MEMBER_STATES } from './shared.ts';
import { micaRule } from './rule.ts';

export const jurisdictionsRules = micaRule('jurisdictions', ({ mica }, report) => {
  const j = mica.jurisdictions;
  if (!j) return;
  const seen = new Set<string>();
  j.record.jurisdictions.forEach((x, i) => {
    if (seen.has(x.iso))
      report(
        j.file,
        ['jurisdictions', i, 'iso'],
        `repeats ${x.iso}`,
        'list each jurisdiction once',
      );
    seen.add(x.iso);
  });
  const eu = j.record.jurisdictions.filter((x) => x.group === 'eu').length;
  if (eu !== EU_MEMBER_STATES)
    report(
      j.file,
      ['jurisdictions'],
      `has ${eu} jurisdictions in group eu`,
      `the EU has ${EU_MEMBER_STATES} member states: list each with group eu`,
    );
});
