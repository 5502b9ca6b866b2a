// One emitter (#39 item 1): the bodies pass makes each body once and checks it against its
// response schema as it writes it; data:build makes none. Counted here: the profile bodies and
// the dataset operations' unfiltered answers the pass makes, over the built dataset
// (`npm run build`), and a data:build run that must not reach the functions that make bodies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PRERENDERED_VIEWS } from '../../src/api/operations.ts';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import type { AssetProfile } from '../../src/domain/api.ts';

const made = vi.hoisted(() => ({ profiles: 0, datasets: 0, views: 0 }));
vi.mock('../../src/api/bodies.ts', async (original) => {
  const actual = await original<typeof import('../../src/api/bodies.ts')>();
  return {
    ...actual,
    assetProfileBody: (...args: Parameters<typeof actual.assetProfileBody>) => {
      made.profiles++;
      return actual.assetProfileBody(...args);
    },
  };
});
vi.mock('../../src/api/answers.ts', async (original) => {
  const actual = await original<typeof import('../../src/api/answers.ts')>();
  return {
    ...actual,
    answerDataset: (...args: Parameters<typeof actual.answerDataset>) => {
      made.datasets++;
      return actual.answerDataset(...args);
    },
  };
});
vi.mock('../../src/api/dataset-views.ts', async (original) => {
  const actual = await original<typeof import('../../src/api/dataset-views.ts')>();
  return {
    ...actual,
    datasetViews: (...args: Parameters<typeof actual.datasetViews>) => {
      made.views++;
      return actual.datasetViews(...args);
    },
  };
});
const { writePrebuiltBodies } = await import('../../src/authoring/prebuilt-bodies.ts');

const dataset = path.resolve('build/dataset.json');
const core = readDataset(dataset);
const profiles = [...readProfiles(dataset)];
const dir = mkdtempSync(path.join(tmpdir(), 'tai-bodies-once-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one emitter', () => {
  it('makes each body once in the bodies pass', async () => {
    made.profiles = made.datasets = made.views = 0;
    const result = await writePrebuiltBodies(core, profiles, path.join(dir, 'ok'));
    expect(result.profiles).toBe(profiles.length);
    expect(made.profiles).toBe(profiles.length);
    // The registry list is streamed from the profiles; the others are their answers to no query.
    expect(made.datasets).toBe(PRERENDERED_VIEWS.length - 1);
    expect(made.views).toBe(1);
  });

  it('checks each body against its schema as it writes it, and writes no pass that fails', async () => {
    const bad = profiles.map((p, i) =>
      i === 3 ? ({ ...p, name: 42 } as unknown as AssetProfile) : p,
    );
    await expect(writePrebuiltBodies(core, bad, path.join(dir, 'bad'))).rejects.toThrow(
      new RegExp(`does not match the published schemas:\\n${profiles[3]!.tfin} /data/name`),
    );
  });

  it('data:build makes no body (it writes the dataset; the pass makes and checks them)', async () => {
    const out = path.join(dir, 'data', 'dataset.json');
    made.profiles = made.datasets = made.views = 0;
    const argv = process.argv;
    process.argv = [argv[0]!, 'scripts/data.ts', 'build', '--out', out];
    try {
      await import('../../scripts/data.ts');
    } finally {
      process.argv = argv;
    }
    expect(readDataset(out).dataset_version).toBe(core.dataset_version);
    expect([...readProfiles(out)]).toHaveLength(profiles.length);
    expect(made).toEqual({ profiles: 0, datasets: 0, views: 0 });
  });
});
