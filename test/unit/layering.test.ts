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

describe('layering', { timeout: 180_000 }, () => {
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
    // One writer of answers (src/representation): the server and Astro's adapters never meet.
    [
      'src/server/x.ts',
      "import { operationResponse } from '../http/astro-endpoint.ts';\nvoid operationResponse;\n",
    ],
    [
      'src/server/steps/x.ts',
      "import { problemResponse } from '../../http/problem-response.ts';\nvoid problemResponse;\n",
    ],
    [
      'src/http/x.ts',
      "import { createPipeline } from '../server/pipeline.ts';\nvoid createPipeline;\n",
    ],
    [
      'src/representation/x.ts',
      "import { createPipeline } from '../server/pipeline.ts';\nvoid createPipeline;\n",
    ],
    [
      'src/representation/x.ts',
      "import { operationResponse } from '../http/astro-endpoint.ts';\nvoid operationResponse;\n",
    ],
    [
      'src/store/x.ts',
      "import { statusClass } from '../telemetry/recorder.ts';\nvoid statusClass;\n",
    ],
  ])('refuses what %s may not import', async (file, code) => {
    expect(await restricted(file, code)).toHaveLength(1);
  });

  it.each([
    ['src/api/x.ts', "import { readDataset } from '../dataset/artifact.ts';\nvoid readDataset;\n"],
    ['src/authoring/x.ts', "import { readParams } from '../api/params.ts';\nvoid readParams;\n"],
    ['scripts/x.ts', "import { readConfig } from '../src/config.ts';\nvoid readConfig;\n"],
    [
      'src/server/x.ts',
      "import { sendProblem } from '../representation/respond.ts';\nvoid sendProblem;\n",
    ],
    [
      'src/http/x.ts',
      "import { answerResponse } from '../representation/representation.ts';\nvoid answerResponse;\n",
    ],
    [
      'src/store/x.ts',
      "import { BILLABLE_CLASSES } from '../domain/billing.ts';\nvoid BILLABLE_CLASSES;\n",
    ],
  ])('allows what %s may import', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });

  // The rules above are only worth something if the files obey them: every import across the
  // rooms that meet at src/representation (the server, Astro's adapters, the store) is checked.
  it('the server, the Astro adapters, the writer and the store cross no room', async () => {
    const results = await eslint.lintFiles([
      'src/server/**/*.ts',
      'src/http/**/*.ts',
      'src/representation/**/*.ts',
      'src/store/**/*.ts',
    ]);
    const crossings = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${path.relative('.', r.filePath)}:${m.line} ${m.message}`),
    );
    expect(crossings).toEqual([]);
  });
});
