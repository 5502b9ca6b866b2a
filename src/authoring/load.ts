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
import { fxFile, marketTotalsFile, stablecoinRecord, venuesFile } from '../domain/market.ts';
import { releaseFile } from '../domain/release.ts';
import { categoriesFile, jurisdictionsFile, memberStateRecord } from '../domain/mica.ts';
import { MARKET_TOTALS_FILE, type Loaded, type LoadedAsset } from '../dataset/loaded.ts';
import { RULES } from './rules/index.ts';
import type { CheckContext, CodeFiles } from './rules/rule.ts';
import { loadMicaExtras } from './mica-load.ts';
import { resolveAllSeries } from './series.ts';
import { inheritFromParents } from '../dataset/parents.ts';
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
  /** Problems of rules in warning mode (`warnOnly`): reported, but the data still pass. */
  warnings: DataProblem[];
}

/** Where loading reports: file names are relative to `root`; problems are collected in `problems`. */
interface LoadContext {
  root: string;
  problems: DataProblem[];
}

/** How a file is checked: its schema and the rule its problems name. */
interface FileCheck<S extends z.ZodType> {
  schema: S;
  rule: string;
  /** Records that parsed as YAML but failed their schema, for the named checks to look at too. */
  partial?: Loaded<unknown>[];
}

function loadOne<S extends z.ZodType>(
  { root, problems }: LoadContext,
  absolute: string,
  check: FileCheck<S>,
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
  return validateParsed({ root, problems }, absolute, parseYamlFile(absolute, root), check);
}

/** The schema's verdict on one parsed file; its problems are added to `problems`. */
function validateParsed<S extends z.ZodType>(
  { root, problems }: LoadContext,
  absolute: string,
  parsed: ParsedYaml,
  { schema, rule, partial }: FileCheck<S>,
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
    const loaded = loadOne({ root, problems }, path.join(root, 'data', 'codes', name), {
      schema,
      rule: `codes/${name.replace('.yaml', '')}`,
    });
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
  ctx: LoadContext,
  dir: string,
  check: FileCheck<S>,
  options: ParseOptions,
): Promise<Loaded<z.infer<S>>[]> {
  const files = yamlFilesIn(dir);
  const parsed = await parseYamlFiles(files, ctx.root, options);
  return files.flatMap((f, i) => {
    const loaded = validateParsed(ctx, f, parsed[i]!, check);
    return loaded ? [loaded] : [];
  });
}

/** The market's files (stablecoins, venues, FX, the market totals); null without data/stablecoins. */
async function loadMarket(ctx: LoadContext, data: string, options: ParseOptions) {
  return existsSync(path.join(data, 'stablecoins'))
    ? {
        stablecoins: await loadAll(
          ctx,
          path.join(data, 'stablecoins'),
          { schema: stablecoinRecord, rule: 'stablecoin-schema' },
          options,
        ),
        venues: loadOne(ctx, path.join(data, 'venues.yaml'), {
          schema: venuesFile,
          rule: 'venues-schema',
        }),
        fx: loadOne(ctx, path.join(data, 'fx.yaml'), { schema: fxFile, rule: 'fx-schema' }),
        // Optional: without it, dominance serves no market share and says why.
        totals: existsSync(path.join(data, MARKET_TOTALS_FILE))
          ? loadOne(ctx, path.join(data, MARKET_TOTALS_FILE), {
              schema: marketTotalsFile,
              rule: 'market-totals-schema',
            })
          : null,
      }
    : null;
}

/** The MiCA files (categories, member states, jurisdictions and the extras); null without data/mica. */
async function loadMica(ctx: LoadContext, data: string, options: ParseOptions) {
  return existsSync(path.join(data, 'mica'))
    ? {
        categories: loadOne(ctx, path.join(data, 'mica', 'categories.yaml'), {
          schema: categoriesFile,
          rule: 'mica-categories-schema',
        }),
        memberStates: await loadAll(
          ctx,
          path.join(data, 'mica', 'member-states'),
          { schema: memberStateRecord, rule: 'member-state-schema' },
          options,
        ),
        jurisdictions: loadOne(ctx, path.join(data, 'jurisdictions.yaml'), {
          schema: jurisdictionsFile,
          rule: 'jurisdictions-schema',
        }),
        ...loadMicaExtras(ctx.root, ctx.problems, (file, schema, rule) =>
          loadOne(ctx, file, { schema, rule }),
        ),
      }
    : null;
}

export async function loadData(
  root: string,
  today: string,
  options: ParseOptions = {},
): Promise<LoadResult> {
  const problems: DataProblem[] = [];
  /** What rules in warning mode found (rule.ts, `warnOnly`): printed, never failing the check. */
  const warnings: DataProblem[] = [];
  const ctx: LoadContext = { root, problems };
  const data = path.join(root, 'data');
  const loadedCodes = loadCodeTables(root, problems);
  const codes = loadedCodes?.tables ?? null;
  const release = loadOne(ctx, path.join(data, 'release.yaml'), {
    schema: releaseFile,
    rule: 'release-schema',
  });
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
    ctx,
    path.join(data, 'assets'),
    { schema: assetRecord, rule: 'asset-schema', partial: invalidAssets },
    options,
  );
  const series = await loadAll(
    ctx,
    path.join(data, 'assets', 'series'),
    { schema: seriesRecord, rule: 'series-schema' },
    options,
  );
  assets.push(...resolveAllSeries(assets, series, problems));
  assets.splice(0, assets.length, ...inheritFromParents(assets));
  const market = await loadMarket(ctx, data, options);
  const mica = await loadMica(ctx, data, options);
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
    for (const rule of RULES) (rule.warnOnly ? warnings : problems).push(...rule.run(ctx));
  }
  return {
    codes,
    datasetDate,
    assets,
    market,
    mica,
    problems: sortProblems(problems),
    warnings: sortProblems(warnings),
  };
}
