// `npm run data:import -- esma --file F [--previous OLD] [--write]`: one of ESMA's interim MiCA
// register files (its kind told by its header) → the register file under data/mica/register/
// and, for CASPS, EMTWP and ARTZZ, the per-member-state counts with their source. With
// --previous (an earlier CASPS.csv), the report lists the authorisations that changed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ImportError } from '../shared/errors.ts';
import type { Importer, ImportContext, ImportResult } from '../shared/importer.ts';
import type { SourceInput } from '../shared/input.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { caspChanges } from './changes.ts';
import { readRegister, type Register } from './register.ts';
import { memberStateChanges, REGISTER_DIR, registerFileChange, type CountUpdate } from './write.ts';
import { registerCounts, type CountField, type RegisterFiles } from '../../dataset/mica-counts.ts';

/** The register file as the count derivation takes it; non-compliant entities are not counted. */
function countedFile(register: Register): RegisterFiles {
  switch (register.kind) {
    case 'casps':
      return { casps: register.file };
    case 'emt':
      return { emt: register.file };
    case 'art':
      return { art: register.file };
    default:
      return {};
  }
}

function countUpdate(register: Register, input: SourceInput, ctx: ImportContext): CountUpdate[] {
  const derived = Object.entries(registerCounts(countedFile(register)));
  if (!derived.length) return [];
  const [field, counts] = derived[0] as [CountField, Map<string, number>];
  const p = register.file.provenance;
  const total = [...counts.values()].reduce((n, c) => n + c, 0);
  return [
    {
      field,
      counts,
      countsAsOf: register.kind === 'casps' ? input.file_date : null,
      source: {
        id: `esma-register-${register.kind}`,
        kind: 'regulator_register',
        title: `ESMA interim MiCA register, ${register.spec.title} (${register.spec.file}), version of ${p.file_date ?? 'unknown date'}, ${p.rows} rows; the count is of ${register.countRule} (${total} in the EEA)`,
        publisher: 'European Securities and Markets Authority (ESMA)',
        url: p.source_url,
        accessed: ctx.today,
        published: p.file_date,
        provenance: p,
      },
    },
  ];
}

/**
 * The date the register file records for this very input (same SHA-256), if any: re-importing the
 * same file keeps its import date, so a second run on the same input writes nothing.
 */
function recordedImportDate(root: string, kind: string, sha256: string): string | null {
  const file = path.join(root, REGISTER_DIR, `${kind}.yaml`);
  if (!existsSync(file)) return null;
  const p = (
    parse(readFileSync(file, 'utf8')) as { provenance?: { sha256?: string; imported?: string } }
  )?.provenance;
  return p?.sha256 === sha256 && p.imported ? p.imported : null;
}

async function run(ctx: ImportContext): Promise<ImportResult> {
  const input = ctx.input!;
  // The same file as the one recorded keeps its recorded import date (and the sources' accessed date).
  const register = readRegister(input, (spec, rows) => {
    const recorded = recordedImportDate(ctx.root, spec.kind, input.sha256);
    if (recorded) ctx = { ...ctx, today: recorded };
    return provenanceOf(input, input.kind === 'url' ? input.name : spec.url, rows, ctx.today);
  });
  const report = [
    `${input.name}: ESMA ${register.spec.file} (${register.spec.title}), ${register.file.provenance.rows} rows → ${register.summary}`,
    ...register.notes.map((n) => `  note: ${n}`),
  ];
  if (ctx.previous) {
    const before = readRegister(ctx.previous, (spec, rows) =>
      provenanceOf(ctx.previous!, spec.url, rows, ctx.today),
    );
    if (before.kind !== 'casps' || register.kind !== 'casps')
      throw new ImportError(
        { input: ctx.previous.name, row: 1 },
        `is ${before.spec.file}, compared with ${register.spec.file}`,
        'two versions of CASPS.csv (--previous compares CASPS files)',
      );
    report.push(
      ...caspChanges(before.file.entities, register.file.entities, {
        before: ctx.previous.file_date ?? ctx.previous.name,
        after: input.file_date ?? input.name,
      }),
    );
  }
  const changes = [
    registerFileChange(register.kind, register.spec.file, register.file),
    ...countUpdate(register, input, ctx).flatMap((u) => memberStateChanges(ctx.root, u)),
  ];
  return { changes, report };
}

export const esmaImporter: Importer = {
  name: 'esma',
  summary: "ESMA's interim MiCA register (CASPS, EMTWP, ARTZZ, NCASP CSV files)",
  needsInput: true,
  run,
};
