// Release manifests (data/releases/, `npm run data:release`): the diff the changelog page shows,
// and the drift check — the manifest of the current data is committed and is exactly what the
// command writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildManifest,
  canonicalJson,
  currentVersion,
  diffManifests,
  manifestText,
  readManifests,
  recordsOf,
  type ManifestEntry,
  type ReleaseManifest,
} from '../../src/dataset/release-manifest.ts';
import { recordUrl } from '../../src/api/record-urls.ts';

const e = (hash: string, last_changed = '2026-01-01'): ManifestEntry => ({
  hash,
  last_changed,
  name: '',
});
const manifest = (
  version: string,
  assets: Record<string, ManifestEntry>,
  venues: Record<string, ManifestEntry> = {},
): ReleaseManifest => ({
  generated: '',
  dataset_version: version,
  dataset_date: version.slice(0, 10),
  records: { assets, stablecoins: {}, member_states: {}, venues },
});

describe('diffManifests', () => {
  it('lists added, changed (another hash) and removed ids per kind, sorted', () => {
    const prev = manifest(
      '2026-01-01.000000000000',
      { B: e('1'), A: e('2'), C: e('3') },
      {
        v1: e('9'),
      },
    );
    const next = manifest('2026-02-01.111111111111', {
      C: e('3', '2026-02-01'), // same data, only last_changed differs: not a change
      A: e('x'),
      E: e('5'),
      D: e('4'),
    });
    const diff = diffManifests(prev, next);
    expect(diff.assets).toEqual({ added: ['D', 'E'], changed: ['A'], removed: ['B'] });
    expect(diff.venues).toEqual({ added: [], changed: [], removed: ['v1'] });
    expect(diff.stablecoins).toEqual({ added: [], changed: [], removed: [] });
  });

  it('hashes data, not key order', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: null }], a: 'x' })).toBe(
      canonicalJson({ a: 'x', b: [1, { c: null, d: 1 }] }),
    );
  });

  it('links each record to the API URL that answers with it', () => {
    expect(recordUrl('assets', 'TFIN-X')).toBe('/v1/registry/asset?tfin=TFIN-X');
    expect(recordUrl('member_states', 'DE', '2026-01-01.000000000000')).toBe(
      '/v1/compliance/mica-status?member_state=DE&dataset_version=2026-01-01.000000000000',
    );
  });
});

describe('committed manifests', () => {
  const root = process.cwd();
  const version = currentVersion(root);
  const file = path.join(root, 'data', 'releases', `${version}.json`);

  // Reads and hashes every real data file: ~3 s on 2 idle cores (575 coin deployments), more on shared ones.
  it(
    'the current data has its manifest, as `npm run data:release` writes it',
    { timeout: 180_000 },
    () => {
      let committed: string;
      try {
        committed = readFileSync(file, 'utf8');
      } catch {
        throw new Error(
          `no manifest for the current data (${path.relative(root, file)}): run npm run data:release`,
        );
      }
      const parsed = JSON.parse(committed) as ReleaseManifest;
      expect(manifestText(recordsOf(parsed)), 'stale: run npm run data:release').toBe(
        manifestText(buildManifest(root)),
      );
      // The body dataset_version= answers from is committed with it (release-bodies.ts).
      expect(parsed.body, 'no body: run npm run data:release').toBeDefined();
    },
  );

  it('one manifest per dataset date, the current release last', () => {
    const all = readManifests();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(new Set(all.map((m) => m.dataset_date)).size).toBe(all.length);
    expect(all.at(-1)!.dataset_version).toBe(version);
  });
});
