// Cross-file rules of the MiCA data, each a small named check.
import path from 'node:path';
import type { CheckContext, DataCheck } from './checks.ts';
import type { DataProblem } from './problems.ts';
import { problemAt } from './yaml-file.ts';
import { categoryCode } from '../domain/mica.ts';
import { MICA_REGISTER_CHECKS } from './mica-register-checks.ts';

export const EU_MEMBER_STATES = 27;
const CATEGORY_ORDER = categoryCode.options;

/** A check that runs when data/mica exists (hoisted: mica-register-checks.ts uses it too). */
export function run(
  name: string,
  fn: (ctx: CheckContext, report: (p: DataProblem) => void) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      if (ctx.mica) fn(ctx, (p) => problems.push(p));
      return problems;
    },
  };
}

export const categoriesComplete = run('mica-categories-complete', ({ mica }, report) => {
  const cats = mica!.categories;
  if (!cats) return;
  const codes = cats.record.categories.map((c) => c.code);
  if (codes.join() !== CATEGORY_ORDER.join()) {
    report(
      problemAt(
        cats.file,
        ['categories'],
        'mica-categories-complete',
        `lists ${codes.join(', ')}`,
        `list each of ${CATEGORY_ORDER.join(', ')} once, in that order`,
      ),
    );
  }
  cats.record.categories.forEach((c, i) => {
    const ids = new Set(c.sources.map((s) => s.id));
    if (!ids.has(c.authorised_entities.source)) {
      report(
        problemAt(
          cats.file,
          ['categories', i, 'authorised_entities', 'source'],
          'mica-categories-complete',
          `names "${c.authorised_entities.source}", which is not a source of this category`,
          `use one of: ${[...ids].join(', ')}`,
        ),
      );
    }
  });
});

export const jurisdictionsRules = run('jurisdictions', ({ mica }, report) => {
  const j = mica!.jurisdictions;
  if (!j) return;
  const seen = new Set<string>();
  j.record.jurisdictions.forEach((x, i) => {
    if (seen.has(x.iso))
      report(
        problemAt(
          j.file,
          ['jurisdictions', i, 'iso'],
          'jurisdictions',
          `repeats ${x.iso}`,
          'list each jurisdiction once',
        ),
      );
    seen.add(x.iso);
  });
  const eu = j.record.jurisdictions.filter((x) => x.group === 'eu').length;
  if (eu !== EU_MEMBER_STATES)
    report(
      problemAt(
        j.file,
        ['jurisdictions'],
        'jurisdictions',
        `has ${eu} jurisdictions in group eu`,
        `the EU has ${EU_MEMBER_STATES} member states: list each with group eu`,
      ),
    );
});

export const memberStateFiles = run('member-state-files', ({ mica }, report) => {
  const eu = new Set(
    mica!.jurisdictions?.record.jurisdictions.filter((x) => x.group === 'eu').map((x) => x.iso) ??
      [],
  );
  const present = new Set<string>();
  for (const { file, record } of mica!.memberStates) {
    const actual = path.posix.basename(file.file);
    if (actual !== `${record.iso.toLowerCase()}.yaml`)
      report(
        problemAt(
          file,
          ['iso'],
          'member-state-files',
          `does not match the file name "${actual}"`,
          `rename the file to ${record.iso.toLowerCase()}.yaml`,
        ),
      );
    if (eu.size && !eu.has(record.iso))
      report(
        problemAt(
          file,
          ['iso'],
          'member-state-files',
          `${record.iso} is not an EU member state in data/jurisdictions.yaml`,
          'only the 27 EU member states have a member-state file',
        ),
      );
    present.add(record.iso);
    const ids = new Set(record.sources.map((s) => s.id));
    if (ids.size !== record.sources.length)
      report(
        problemAt(
          file,
          ['sources'],
          'member-state-files',
          'repeats a source id',
          'give every source its own id',
        ),
      );
  }
  const missing = [...eu].filter((iso) => !present.has(iso));
  if (missing.length && mica!.jurisdictions) {
    report(
      problemAt(
        mica!.jurisdictions.file,
        ['jurisdictions'],
        'member-state-files',
        `EU member states without a file in data/mica/member-states/: ${missing.join(', ')}`,
        'add data/mica/member-states/<iso>.yaml for each',
      ),
    );
  }
});

/** Per-state counts must add up to the EU totals when both describe the same date. */
export const countsAddUp = run('member-state-counts-add-up', ({ mica }, report) => {
  const cats = mica!.categories;
  if (!cats) return;
  const fields = {
    EMT: 'emt_issuers',
    ART: 'art_issuers',
    CASP: 'authorised_casps',
    DLT_PILOT: 'dlt_pilot_infrastructures',
  } as const;
  cats.record.categories.forEach((c, i) => {
    const states = mica!.memberStates.filter(
      (s) => s.record.counts_as_of === c.authorised_entities.as_of,
    );
    if (states.length !== EU_MEMBER_STATES) return;
    const sum = states.reduce((n, s) => n + s.record[fields[c.code]], 0);
    if (sum !== c.authorised_entities.count) {
      report(
        problemAt(
          cats.file,
          ['categories', i, 'authorised_entities', 'count'],
          'member-state-counts-add-up',
          `is ${c.authorised_entities.count} but the member-state files add up to ${sum} for ${c.authorised_entities.as_of}`,
          `correct the EU total or the per-state ${fields[c.code]}`,
        ),
      );
    }
  });
});

export const MICA_CHECKS: readonly DataCheck[] = [
  categoriesComplete,
  jurisdictionsRules,
  memberStateFiles,
  countsAddUp,
  ...MICA_REGISTER_CHECKS,
];
