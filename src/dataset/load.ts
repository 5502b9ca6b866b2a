// Loads data/: reads every YAML file, validates it with its zod schema, runs the named checks.
// Reports every problem, never only the first.
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { assetRecord } from '../domain/asset.ts';
import {
  custodyTable,
  gradesTable,
  ledgerTable,
  micaStatusTable,
  riskFactorTable,
  tficTable,
  type CodeTables,
} from '../domain/codes.ts';
import { ASSET_CHECKS, type LoadedAsset } from './checks.ts';
import { sortProblems, type DataProblem } from './problems.ts';
import { readYamlFile } from './yaml-file.ts';
import { zodProblems } from './zod-problems.ts';

export interface LoadResult {
  codes: CodeTables | null;
  assets: LoadedAsset[];
  problems: DataProblem[];
}

function loadOne<S extends z.ZodType>(
  absolute: string,
  root: string,
  schema: S,
  rule: string,
  problems: DataProblem[],
) {
  const { file, problems: yamlProblems } = readYamlFile(absolute, root);
  problems.push(...yamlProblems);
  if (yamlProblems.length) return null;
  const found = zodProblems(file, schema, rule);
  problems.push(...found);
  return found.length ? null : { file, value: file.value as z.infer<S> };
}

const CODE_TABLES = {
  tfic: ['tfic.yaml', tficTable],
  ledgers: ['ledgers.yaml', ledgerTable],
  micaStatus: ['mica-status.yaml', micaStatusTable],
  custody: ['custody.yaml', custodyTable],
  grades: ['grades.yaml', gradesTable],
  riskFactors: ['risk-factors.yaml', riskFactorTable],
} as const;

export function loadCodeTables(root: string, problems: DataProblem[]): CodeTables | null {
  const out: Partial<Record<keyof CodeTables, unknown>> = {};
  let ok = true;
  for (const [key, [name, schema]] of Object.entries(CODE_TABLES)) {
    const loaded = loadOne(
      path.join(root, 'data', 'codes', name),
      root,
      schema,
      `codes/${name.replace('.yaml', '')}`,
      problems,
    );
    if (loaded) out[key as keyof CodeTables] = loaded.value;
    else ok = false;
  }
  return ok ? (out as CodeTables) : null;
}

export function yamlFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function loadData(root: string, today: string): LoadResult {
  const problems: DataProblem[] = [];
  const codes = loadCodeTables(root, problems);
  const assets: LoadedAsset[] = [];
  for (const absolute of yamlFilesIn(path.join(root, 'data', 'assets'))) {
    const loaded = loadOne(absolute, root, assetRecord, 'asset-schema', problems);
    if (loaded) assets.push({ file: loaded.file, record: loaded.value });
  }
  if (codes)
    for (const check of ASSET_CHECKS) problems.push(...check.run({ assets, codes, today }));
  return { codes, assets, problems: sortProblems(problems) };
}
