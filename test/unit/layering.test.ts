// The import rules between the rooms of src/ (eslint.config.js) bite: a file that crosses a
// phase is an error, and an import the rules allow is not.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve('.') });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(filePath) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering', { timeout: 60_000 }, () => {
  it.each([
    ['src/api/x.ts', "import { loadData } from '../authoring/load.ts';\nvoid loadData;\n"],
    ['src/dataset/x.ts', "import { readParams } from '../api/params.ts';\nvoid readParams;\n"],
    [
      'src/lib/x.ts',
      "import type { AssetRecord } from '../domain/asset.ts';\nexport type X = AssetRecord;\n",
    ],
    ['src/server/x.ts', "import { loadData } from '../authoring/load.ts';\nvoid loadData;\n"],
    ['src/pages/x.ts', "import { openStore } from '../store/open.ts';\nvoid openStore;\n"],
    [
      'scripts/x.ts',
      "import { createPipeline } from '../src/server/pipeline.ts';\nvoid createPipeline;\n",
    ],
  ])('refuses what %s may not import', async (file, code) => {
    expect(await restricted(file, code)).toHaveLength(1);
  });

  it.each([
    ['src/api/x.ts', "import { readDataset } from '../dataset/artifact.ts';\nvoid readDataset;\n"],
    ['src/authoring/x.ts', "import { readParams } from '../api/params.ts';\nvoid readParams;\n"],
    ['scripts/x.ts', "import { readConfig } from '../src/config.ts';\nvoid readConfig;\n"],
  ])('allows what %s may import', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
