// Cross-file rules between the member-state files, the register files the ESMA importer writes
// and the transitional periods: a typed count must equal the register's, and every EU member
// state needs its transitional period, read from a listed version of ESMA's list.
import type { DataCheck } from './checks.ts';
import { run } from './mica-checks.ts';
import { problemAt } from './yaml-file.ts';
import { registerCounts, type CountField } from './mica-counts.ts';
import { TRANSITIONAL_FIX } from './mica-load.ts';

const ESMA_FILE: Record<CountField, [register: string, esma: string, what: string]> = {
  authorised_casps: ['casps', 'CASPS.csv', 'authorised CASPs (withdrawn excluded)'],
  emt_issuers: ['emt', 'EMTWP.csv', 'EMT issuers'],
  art_issuers: ['art', 'ARTZZ.csv', 'ART issuers'],
};

export const countsMatchRegister = run('member-state-counts-match-register', ({ mica }, report) => {
  const r = mica!.register;
  const counts = registerCounts({
    casps: r.casps?.record ?? null,
    emt: r.emt?.record ?? null,
    art: r.art?.record ?? null,
  });
  for (const { file, record, schemaFailed } of mica!.memberStates) {
    if (schemaFailed) continue;
    for (const field of Object.keys(ESMA_FILE) as CountField[]) {
      const derived = counts[field];
      if (!derived) continue;
      const expected = derived.get(record.iso) ?? 0;
      const [register, esma, what] = ESMA_FILE[field];
      if (record[field] !== expected)
        report(
          problemAt(
            file,
            [field],
            'member-state-counts-match-register',
            `is ${record[field]}, but data/mica/register/${register}.yaml lists ${expected} ${what} with home member state ${record.iso}`,
            `set it to ${expected}: run npm run data:import -- esma --file <ESMA's ${esma}> --write, which writes both`,
          ),
        );
    }
  }
});

export const transitionalComplete = run('transitional-periods-complete', ({ mica }, report) => {
  const t = mica!.transitional;
  if (!t) return;
  const { file, record } = t;
  const eu =
    mica!.jurisdictions?.record.jurisdictions.filter((j) => j.group === 'eu').map((j) => j.iso) ??
    [];
  const versions = record.esma_list.map((v) => v.version);
  const sourceIds = new Set(record.sources.map((s) => s.id));
  const seen = new Set<string>();
  const at = (path: (string | number)[], message: string, fix: string) =>
    report(problemAt(file, path, 'transitional-periods-complete', message, fix));
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
});

export const MICA_REGISTER_CHECKS: readonly DataCheck[] = [
  countsMatchRegister,
  transitionalComplete,
];
