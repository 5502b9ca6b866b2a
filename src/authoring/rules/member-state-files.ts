// The rule `member-state-files` (npm run data:check).
import path from 'node:path';
import { micaRule } from './rule.ts';

export const memberStateFiles = micaRule('member-state-files', ({ mica }, report) => {
  const eu = new Set(
    mica.jurisdictions?.record.jurisdictions.filter((x) => x.group === 'eu').map((x) => x.iso) ??
      [],
  );
  const present = new Set<string>();
  for (const { file, record } of mica.memberStates) {
    const actual = path.posix.basename(file.file);
    if (actual !== `${record.iso.toLowerCase()}.yaml`)
      report(
        file,
        ['iso'],
        `does not match the file name "${actual}"`,
        `rename the file to ${record.iso.toLowerCase()}.yaml`,
      );
    if (eu.size && !eu.has(record.iso))
      report(
        file,
        ['iso'],
        `${record.iso} is not an EU member state in data/jurisdictions.yaml`,
        'only the 27 EU member states have a member-state file',
      );
    present.add(record.iso);
    const ids = new Set(record.sources.map((s) => s.id));
    if (ids.size !== record.sources.length)
      report(file, ['sources'], 'repeats a source id', 'give every source its own id');
  }
  const missing = [...eu].filter((iso) => !present.has(iso));
  if (missing.length && mica.jurisdictions) {
    report(
      mica.jurisdictions.file,
      ['jurisdictions'],
      `EU member states without a file in data/mica/member-states/: ${missing.join(', ')}`,
      'add data/mica/member-states/<iso>.yaml for each',
    );
  }
});
