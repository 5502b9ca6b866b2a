// Loads data/: reads every YAML file, validates it with its zod schema, runs the named checks.
// Reports every problem, never only the first.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { assetRecord, seriesRecord } from '../domain/asset.ts';
import {
  custodyTable,
  gradesTable,
  ledgerTable,
  micaStatusTable,
  readinessTable,
  riskFactorTable,
  sourcePolicyTable,
  stablecoinScoresTable,
  tficTable,
  type CodeTables,
} from '../domain/codes.ts';
import { fxFile, stablecoinRecord, venuesFile } from '../domain/market.ts';
import { releaseFile } from '../domain/release.ts';
import { categoriesFile, jurisdictionsFile, memberStateRecord } from '../domain/mica.ts';
import type { Loaded, LoadedAsset } from '../dataset/loaded.ts';
import { RULES } from './rules/index.ts';
import type { CheckContext, CodeFiles } from './rules/rule.ts';
import { loadMicaExtras } from './mica-load.ts';
import { resolveAllSeries } from './series.ts';
import { sortProblems, type DataProblem } from './problems.ts';
import { parseYamlFiles, type ParseOptions } from './parse-parallel.ts';
import { parseYamlFile, problemAt, relativeName, yamlFile, type ParsedYaml } from './yaml-file.ts';
import { zodProblems } from './zod-problems.ts';

export interface LoadResult extends Omit<
  CheckContext,
  'codes' | 'codeFiles' | 'today' | 'datasetDate'
> {
  codes: CodeTables | null;
  /** data/release.yaml's dataset date; null when the file is missing or invalid. */
  datasetDate: string | null;
  problems: DataProblem[];
}

function loadOne<S extends z.ZodType>(
  absolute: string,
  root: string,
  schema: S,
  rule: string,
  problems: DataProblem[],
  /** Records that parsed as YAML but failed their schema, for the named checks to look at too. */
  partial?: Loaded<unknown>[],
): Loaded<z.infer<S>> | null {
  if (!existsSync(absolute)) {
    problems.push({
      file: relativeName(absolute, root),
      path: [],
      line: null,
      column: null,
      message: 'is missing',
      fix: 'restore the file (see CONTRIBUTING.md)',
      rule: 'required-file',
    });
    return null;
  }
  return validateParsed(
    absolute,
    root,
    parseYamlFile(absolute, root),
    schema,
    rule,
    problems,
    partial,
  );
}

/** The schema's verdict on one parsed file; its problems are added to `problems`. */
function validateParsed<S extends z.ZodType>(
  absolute: string,
  root: string,
  parsed: ParsedYaml,
  schema: S,
  rule: string,
  problems: DataProblem[],
  partial?: Loaded<unknown>[],
): Loaded<z.infer<S>> | null {
  problems.push(...parsed.problems);
  if (parsed.problems.length) return null;
  const file = yamlFile(absolute, root, parsed.value);
  const found = zodProblems(file, schema, rule);
  problems.push(...found);
  if (found.length && partial && file.value && typeof file.value === 'object')
    partial.push({ file, record: file.value, schemaFailed: true });
  return found.length ? null : { file, record: file.value as z.infer<S> };
}

const CODE_TABLES = {
  tfic: ['tfic.yaml', tficTable],
  ledgers: ['ledgers.yaml', ledgerTable],
  micaStatus: ['mica-status.yaml', micaStatusTable],
  custody: ['custody.yaml', custodyTable],
  grades: ['grades.yaml', gradesTable],
  riskFactors: ['risk-factors.yaml', riskFactorTable],
  stablecoinScores: ['stablecoin-scores.yaml', stablecoinScoresTable],
  readiness: ['readiness.yaml', readinessTable],
  sourcePolicy: ['source-policy.yaml', sourcePolicyTable],
} as const;

export interface LoadedCodeTables {
  tables: CodeTables;
  /** Each table's file, for the rules over the tables themselves to point at a line. */
  files: CodeFiles;
}

export function loadCodeTables(root: string, problems: DataProblem[]): LoadedCodeTables | null {
  const out: Partial<Record<keyof CodeTables, unknown>> = {};
  const files: Partial<CodeFiles> = {};
  let ok = true;
  for (const [key, [name, schema]] of Object.entries(CODE_TABLES)) {
    const loaded = loadOne(
      path.join(root, 'data', 'codes', name),
      root,
      schema,
      `codes/${name.replace('.yaml', '')}`,
      problems,
    );
    if (loaded) {
      out[key as keyof CodeTables] = loaded.record;
      files[key as keyof CodeTables] = loaded.file;
    } else ok = false;
  }
  return ok ? { tables: out as CodeTables, files: files as CodeFiles } : null;
}

export function yamlFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => path.join(dir, f));
}

async function loadAll<S extends z.ZodType>(
  dir: string,
  root: string,
  schema: S,
  rule: string,
  problems: DataProblem[],
  options: ParseOptions,
  partial?: Loaded<unknown>[],
): Promise<Loaded<z.infer<S>>[]> {
  const files = yamlFilesIn(dir);
  const parsed = await parseYamlFiles(files, root, options);
  return files.flatMap((f, i) => {
    const loaded = validateParsed(f, root, parsed[i]!, schema, rule, problems, partial);
    return loaded ? [loaded] : [];
  });
}

export async function loadData(
  root: string,
  today: string,
  options: ParseOptions = {},
): Promise<LoadResult> {
  const problems: DataProblem[] = [];
  const data = path.join(root, 'data');
  const loadedCodes = loadCodeTables(root, problems);
  const codes = loadedCodes?.tables ?? null;
  const release = loadOne(
    path.join(data, 'release.yaml'),
    root,
    releaseFile,
    'release-schema',
    problems,
  );
  const datasetDate = release?.record.dataset_date ?? null;
  if (release && datasetDate && datasetDate > today)
    problems.push(
      problemAt(
        release.file,
        ['dataset_date'],
        'release-date',
        `${datasetDate} is in the future`,
        `the dataset describes what is known today (${today}): set it to ${today} or earlier`,
      ),
    );
  const invalidAssets: Loaded<unknown>[] = [];
  const assets: LoadedAsset[] = await loadAll(
    path.join(data, 'assets'),
    root,
    assetRecord,
    'asset-schema',
    problems,
    options,
    invalidAssets,
  );
  const series = await loadAll(
    path.join(data, 'assets', 'series'),
    root,
    seriesRecord,
    'series-schema',
    problems,
    options,
  );
  assets.push(...resolveAllSeries(assets, series, problems));
  const market = existsSync(path.join(data, 'stablecoins'))
    ? {
        stablecoins: await loadAll(
          path.join(data, 'stablecoins'),
          root,
          stablecoinRecord,
          'stablecoin-schema',
          problems,
          options,
        ),
        venues: loadOne(
          path.join(data, 'venues.yaml'),
          root,
          venuesFile,
          'venues-schema',
          problems,
        ),
        fx: loadOne(path.join(data, 'fx.yaml'), root, fxFile, 'fx-schema', problems),
      }
    : null;
  const mica = existsSync(path.join(data, 'mica'))
    ? {
        categories: loadOne(
          path.join(data, 'mica', 'categories.yaml'),
          root,
          categoriesFile,
          'mica-categories-schema',
          problems,
        ),
        memberStates: await loadAll(
          path.join(data, 'mica', 'member-states'),
          root,
          memberStateRecord,
          'member-state-schema',
          problems,
          options,
        ),
        jurisdictions: loadOne(
          path.join(data, 'jurisdictions.yaml'),
          root,
          jurisdictionsFile,
          'jurisdictions-schema',
          problems,
        ),
        ...loadMicaExtras(root, problems, (file, schema, rule) =>
          loadOne(file, root, schema, rule, problems),
        ),
      }
    : null;
  if (loadedCodes && datasetDate) {
    // The named checks also look at records that failed their schema (guarded per record), so an
    // editor sees every problem of a file in one run, not the schema's first.
    const checked = [...assets, ...(invalidAssets as LoadedAsset[])];
    const ctx: CheckContext = {
      assets: checked,
      market,
      mica,
      codes: loadedCodes.tables,
      codeFiles: loadedCodes.files,
      today,
      datasetDate,
    };
    for (const rule of RULES) problems.push(...rule.run(ctx));
  }
  return { codes, datasetDate, assets, market, mica, problems: sortProblems(problems) };
}
