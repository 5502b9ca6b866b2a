// One emitter (#39 item 1): the emitter (scripts/emit.ts → src/authoring/prebuilt-bodies.ts) makes
// each body once, checks it against its response schema as it writes it and writes it straight
// where it is served; data:build makes none, Astro sends or copies none, nothing moves one, and
// the core is parsed once per build. Counted here: the profile bodies and the dataset operations'
// unfiltered answers the pass makes, over the built dataset (`npm run build`); the files it
// writes (each once, and every body under v1/); a data:build run that must not reach the
// functions that make bodies; the build's steps, pages and scripts (no other writer of a body);
// and the core parsed once by two copies of its module, as the emitter and Astro's pages are.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PRERENDERED_VIEWS } from '../../src/api/operations.ts';
import { readDataset, readProfiles } from '../../src/dataset/artifact.ts';
import { INTERNAL_FILES } from '../../src/dataset/built-files.ts';
import type { AssetProfile } from '../../src/domain/api.ts';
import { walkFiles } from '../../src/lib/walk.ts';

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
const { writePrebuiltBodies, prebuiltBodyPaths } =
  await import('../../src/authoring/prebuilt-bodies.ts');

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
    // Each file written once (the pass refuses a second write of a path), and every body there.
    expect(new Set(result.bodies).size).toBe(result.bodies.length);
    expect([...result.bodies].sort()).toEqual(prebuiltBodyPaths().sort());
    const files = walkFiles(path.join(dir, 'ok')).map((f) =>
      path.relative(path.join(dir, 'ok'), f).split(path.sep).join('/'),
    );
    expect(files.sort()).toEqual([...prebuiltBodyPaths(), ...INTERNAL_FILES].sort());
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

/** The source of a repository file, comments removed (what the guards below read). */
const source = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('no other writer of a body', () => {
  it('the build is data:build, then the emitter: nothing runs between or after them', () => {
    const steps = [...source('scripts/build.ts').matchAll(/run\(\[\s*'([^']+)'/g)].map((m) => m[1]);
    expect(steps).toEqual(['scripts/data.ts', 'scripts/emit.ts']);
  });

  it('Astro prerenders nothing under /v1 (it neither sends nor copies a body)', () => {
    const pages = walkFiles('src/pages/v1').map((f) => path.relative('src/pages/v1', f));
    expect(pages).toEqual(['[...operation].ts']);
    expect(source('src/pages/v1/[...operation].ts')).toMatch(/export const prerender = false;/);
  });

  it('only the emitter calls the pass, and no script moves or copies a body in', () => {
    const callers = ['scripts', 'src', 'bench']
      .flatMap((d) => walkFiles(d))
      .filter(
        (f) =>
          /\.(ts|astro|mjs)$/.test(f) && f !== path.join('src', 'authoring', 'prebuilt-bodies.ts'),
      )
      .filter((f) => /writePrebuiltBodies\(/.test(source(f)));
    expect(callers).toEqual([path.join('scripts', 'emit.ts')]);
    for (const script of ['scripts/emit.ts', 'scripts/postbuild.ts'])
      expect(source(script), script).not.toMatch(
        /renameSync|copyFileSync|INTERNAL_FILES|bodiesDir|build\/bodies/,
      );
  });
});

describe('the core, parsed once per build', () => {
  it('is one parse for every copy of its module in the process (the emitter, Astro’s pages)', async () => {
    // A copy no reader has parsed yet.
    const file = path.join(dir, 'core.json');
    copyFileSync(dataset, file);
    vi.resetModules();
    const first = await import('../../src/dataset/artifact.ts');
    vi.resetModules();
    const second = await import('../../src/dataset/artifact.ts');
    expect(second).not.toBe(first);
    const before = first.coreParses();
    const a = first.sharedDataset(file);
    const b = second.sharedDataset(path.relative(process.cwd(), file));
    expect(b).toBe(a);
    expect(second.sharedDataset(file)).toBe(a);
    expect(second.coreParses() - before).toBe(1);
  });
});
