// The rule `transitional-periods-complete` (npm run data:check).
import { TRANSITIONAL_FIX } from '../mica-load.ts';
import { micaRule } from './rule.ts';

export const transitionalComplete = micaRule(
  'transitional-periods-complete',
  ({ mica }, report) => {
    const t = mica.transitional;
    if (!t) return;
    const { file, record } = t;
    const eu =
      mica.jurisdictions?.record.jurisdictions.filter((j) => j.group === 'eu').map((j) => j.iso) ??
      [];
    const versions = record.esma_list.map((v) => v.version);
    const sourceIds = new Set(record.sources.map((s) => s.id));
    const seen = new Set<string>();
    const at = (path: (string | number)[], message: string, fix: string) =>
      report(file, path, message, fix);
    record.esma_list.forEach((v, i) => {
      if (!sourceIds.has(v.source))
        at(
          ['esma_list', i, 'source'],
          `names "${v.source}", which is not in sources`,
          'add the source or correct the id',
        );
    });
    record.states.forEach((s, i) => {
      if (seen.has(s.iso))
        at(['states', i, 'iso'], `repeats ${s.iso}`, 'give each member state one entry');
      seen.add(s.iso);
      if (eu.length && !eu.includes(s.iso))
        at(
          ['states', i, 'iso'],
          `${s.iso} is not an EU member state in data/jurisdictions.yaml`,
          'list the 27 EU member states only (Greece is GR)',
        );
      if (!versions.includes(s.notified.esma_list_version))
        at(
          ['states', i, 'notified', 'esma_list_version'],
          `${s.notified.esma_list_version} is not a version listed in esma_list`,
          `use one of ${versions.join(', ')}, or add that version to esma_list`,
        );
      if (!sourceIds.has(s.national.source))
        at(
          ['states', i, 'national', 'source'],
          `names "${s.national.source}", which is not in sources`,
          'add the source or correct the id',
        );
    });
    const missing = eu.filter((iso) => !seen.has(iso)).sort();
    if (missing.length)
      at(
        ['states'],
        `has no entry for ${missing.join(', ')}`,
        `add one entry per missing member state (${TRANSITIONAL_FIX.replace(/^write \S+: /, '')})`,
      );
  },
);
