// Committed release bodies (src/dataset/release-bodies.ts): installed only when their digests and
// version match the manifest; the install replaces whatever an earlier build left.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { installReleases, writeReleaseBody } from '../../src/dataset/release-bodies.ts';
import type { ReleaseManifest } from '../../src/dataset/release-manifest.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tai-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = '2026-01-01.aaaaaaaaaaaa';
const CURRENT = '2026-02-01.bbbbbbbbbbbb';

function release(version: string): ReleaseManifest {
  const built = path.join(dir, `built-${version}`);
  mkdirSync(built, { recursive: true });
  writeFileSync(path.join(built, 'dataset.json'), JSON.stringify({ dataset_version: version }));
  writeFileSync(path.join(built, 'dataset.assets.ndjson'), '{"tfin":"TFIN-X"}\n');
  const committed = path.join(dir, 'committed');
  mkdirSync(committed, { recursive: true });
  return {
    generated: '',
    dataset_version: version,
    dataset_date: version.slice(0, 10),
    records: { assets: {}, stablecoins: {}, member_states: {}, venues: {} },
    body: writeReleaseBody(path.join(built, 'dataset.json'), committed, version),
  };
}

describe('installReleases', () => {
  const committed = path.join(dir, 'committed');
  const target = path.join(dir, 'build', 'releases');
  const manifests = [release(OLD), release(CURRENT)];

  it('installs every committed body but the current one, and removes what an earlier build left', () => {
    mkdirSync(target, { recursive: true });
    writeFileSync(path.join(target, '2026-01-15.cccccccccccc.json'), '{}'); // a local build
    expect(installReleases(manifests, committed, target, CURRENT)).toEqual([OLD]);
    expect(readdirSync(target).sort()).toEqual([`${OLD}.assets.ndjson`, `${OLD}.json`]);
    expect(JSON.parse(readFileSync(path.join(target, `${OLD}.json`), 'utf8'))).toEqual({
      dataset_version: OLD,
    });
  });

  it('refuses a body whose bytes differ from the manifest, naming the file and the fix', () => {
    const file = path.join(committed, `${OLD}.assets.ndjson.gz`);
    const good = readFileSync(file);
    writeFileSync(file, gzipSync('{"tfin":"TFIN-Y"}\n'));
    try {
      expect(() => installReleases(manifests, committed, target, CURRENT)).toThrow(
        new RegExp(
          `${OLD}\\.assets\\.ndjson\\.gz: SHA-256 [0-9a-f]{64} differs from ${manifests[0]!.body!.profiles.sha256} in the manifest of ${OLD}\\. Fix: restore it`,
        ),
      );
    } finally {
      writeFileSync(file, good);
    }
  });

  it('refuses a body that is another release', () => {
    const swapped = { ...manifests[1]!, dataset_version: OLD };
    expect(() => installReleases([swapped], committed, target, CURRENT)).toThrow(
      /dataset_version is 2026-02-01\.bbbbbbbbbbbb, the manifest says 2026-01-01\.aaaaaaaaaaaa/,
    );
  });

  it('skips a release cut before bodies were committed', () => {
    const { body: _none, ...bare } = manifests[0]!;
    expect(installReleases([bare], committed, target, CURRENT)).toEqual([]);
    expect(existsSync(target)).toBe(true);
  });
});
