// The committed bodies of a data release (writer + reader): `npm run data:release` builds the
// release's dataset and commits it gzipped beside its manifest (data/releases/<version>.dataset.json.gz
// and .assets.ndjson.gz), with the SHA-256 of each uncompressed file in the manifest's `body`.
// The build installs every committed body into build/releases/ after checking it against those
// digests, and nothing else: a point-in-time read answers from a committed release only, never
// from an earlier local build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { profilesPath } from './artifact.ts';
import type { ReleaseBody, ReleaseManifest } from './release-manifest.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The committed file names of a release's body, beside its manifest. */
export const bodyFiles = (version: string) => ({
  core: `${version}.dataset.json.gz`,
  profiles: `${version}.assets.ndjson.gz`,
});

/** Gzips a built dataset (core and profiles) into `dir`; returns the manifest's `body`. */
export function writeReleaseBody(datasetFile: string, dir: string, version: string): ReleaseBody {
  const names = bodyFiles(version);
  const write = (from: string, name: string) => {
    const bytes = readFileSync(from);
    // Level 9 and no timestamp in the header (Node writes none): the same body, the same bytes.
    writeFileSync(path.join(dir, name), gzipSync(bytes, { level: 9 }));
    return { file: name, sha256: sha256(bytes) };
  };
  return {
    core: write(datasetFile, names.core),
    profiles: write(profilesPath(datasetFile), names.profiles),
  };
}

export class ReleaseBodyError extends Error {}

/**
 * Replaces `releasesDir` (build/releases) with the committed bodies of every release but the
 * current one, each checked against its manifest's digests and its own dataset_version. Returns
 * the versions installed, newest first. A release whose manifest has no body is not installed.
 */
export function installReleases(
  manifests: readonly ReleaseManifest[],
  committedDir: string,
  releasesDir: string,
  current: string,
): string[] {
  rmSync(releasesDir, { recursive: true, force: true });
  mkdirSync(releasesDir, { recursive: true });
  const installed: string[] = [];
  for (const m of manifests) {
    if (!m.body || m.dataset_version === current) continue;
    const target = path.join(releasesDir, `${m.dataset_version}.json`);
    const core = unpack(committedDir, m.body.core, m.dataset_version);
    const version = (JSON.parse(core.toString('utf8')) as { dataset_version?: unknown })
      .dataset_version;
    if (version !== m.dataset_version)
      throw new ReleaseBodyError(
        `${path.join(committedDir, m.body.core.file)}: dataset_version is ${String(version)}, the manifest says ${m.dataset_version}. Fix: restore the file from the commit that cut the release.`,
      );
    writeFileSync(profilesPath(target), unpack(committedDir, m.body.profiles, m.dataset_version));
    writeFileSync(target, core);
    installed.push(m.dataset_version);
  }
  return installed.sort().reverse();
}

function unpack(dir: string, entry: { file: string; sha256: string }, version: string): Buffer {
  const file = path.join(dir, entry.file);
  const fix = `Fix: restore it from the commit that cut release ${version} (git checkout <commit> -- ${path.relative(process.cwd(), file)}).`;
  if (!existsSync(file))
    throw new ReleaseBodyError(`${file} is missing: the manifest of ${version} names it. ${fix}`);
  let bytes: Buffer;
  try {
    bytes = gunzipSync(readFileSync(file));
  } catch (error) {
    throw new ReleaseBodyError(`${file} is not a gzip file (${(error as Error).message}). ${fix}`);
  }
  const digest = sha256(bytes);
  if (digest !== entry.sha256)
    throw new ReleaseBodyError(
      `${file}: SHA-256 ${digest} differs from ${entry.sha256} in the manifest of ${version}. ${fix}`,
    );
  return bytes;
}
