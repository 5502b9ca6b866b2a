// Integrity of the built artifacts (issue #14 item 18). `npm run build` ends by writing a
// manifest (scripts/postbuild.ts): the size and SHA-256 of every file the server serves from or
// loads — the dataset core, the profile pack, the prebuilt bodies with their .br/.gz. At
// start the server verifies every digest and refuses to start (exit 1, naming each damaged file)
// when one differs: a pack truncated to half used to start, report ready, and answer 500 for
// half of the assets; a dataset.json with another registry but the same dataset_version was
// accepted. While running, `artifactIntegrity()` re-checks sizes (a stat per file, cached for a
// second) for the readiness endpoint: a file truncated or replaced under a running server makes
// it not ready.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export const MANIFEST_FILE = 'integrity.json';

export interface ManifestEntry {
  bytes: number;
  sha256: string;
}

export interface Manifest {
  /** Relative to the dist directory, or "dataset:core" for TAI_DATASET (build/dataset.json). */
  files: Record<string, ManifestEntry>;
}

export interface IntegrityReport {
  ok: boolean;
  /** One line per damaged or missing file. */
  problems: string[];
}

/** Streams the file through SHA-256 (the pack is hundreds of MB at 100,000 assets). */
export function digestFile(file: string): ManifestEntry {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Where each manifest key lives on disk. */
function locate(key: string, distDir: string, datasetFile: string): string {
  if (key === 'dataset:core') return datasetFile;
  return path.join(distDir, ...key.split('/'));
}

/** Written by scripts/postbuild.ts: `files` are the dist-relative paths to cover. */
export function writeManifest(distDir: string, datasetFile: string, files: string[]): Manifest {
  const manifest: Manifest = { files: {} };
  for (const key of ['dataset:core', ...files])
    manifest.files[key] = digestFile(locate(key, distDir, datasetFile));
  writeFileSync(path.join(distDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function readManifest(distDir: string): Manifest | string {
  const file = path.join(distDir, MANIFEST_FILE);
  if (!existsSync(file)) return `${file} is missing: run \`npm run build\``;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    return `${file} is not valid JSON (${(err as Error).message}): run \`npm run build\``;
  }
}

function check(
  manifest: Manifest,
  distDir: string,
  datasetFile: string,
  digests: boolean,
): string[] {
  const problems: string[] = [];
  for (const [key, want] of Object.entries(manifest.files)) {
    const file = locate(key, distDir, datasetFile);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      problems.push(`${file}: missing`);
      continue;
    }
    if (size !== want.bytes) {
      problems.push(
        `${file}: ${size} bytes, the build wrote ${want.bytes} (truncated or replaced)`,
      );
      continue;
    }
    if (digests && digestFile(file).sha256 !== want.sha256)
      problems.push(`${file}: content differs from the build (SHA-256 mismatch)`);
  }
  return problems;
}

let state: { distDir: string; datasetFile: string; manifest: Manifest } | null = null;
let cached: { at: number; report: IntegrityReport } | null = null;

/**
 * Verifies every size and digest; throws an Error naming each damaged file (the server does not
 * start). Remembers the manifest for `artifactIntegrity()`.
 */
export function verifyArtifacts(distDir: string, datasetFile: string): void {
  const manifest = readManifest(distDir);
  if (typeof manifest === 'string') throw new Error(`build integrity: ${manifest}`);
  const problems = check(manifest, distDir, datasetFile, true);
  if (problems.length)
    throw new Error(
      `build integrity: the built artifacts do not match their manifest; rebuild with \`npm run build\`:\n  ${problems.join('\n  ')}`,
    );
  state = { distDir, datasetFile, manifest };
  cached = null;
}

/**
 * For the readiness endpoint: the artifacts as verified at start, their sizes re-checked (at
 * most once a second). Not ready when start-up verification did not run or a file changed.
 */
export function artifactIntegrity(now = Date.now()): IntegrityReport {
  if (!state) return { ok: false, problems: ['the built artifacts were not verified'] };
  if (cached && now - cached.at < 1000) return cached.report;
  const problems = check(state.manifest, state.distDir, state.datasetFile, false);
  cached = { at: now, report: { ok: problems.length === 0, problems } };
  return cached.report;
}
