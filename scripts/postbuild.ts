// The emitter's last step (scripts/emit.ts), after `astro build`, in the same process and on the
// same core: publish the JSON Schemas under /schemas/ and the Scalar bundle, check the build
// output, precompress it and write the integrity manifest (dist/integrity.json) the server
// verifies at start. Every body is already in dist/client (the emitter wrote it there): nothing
// is moved or copied in.
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressDir } from './precompress.ts';
import { PROFILES_PACK, REGISTRY_QUERY_FILE, SUMMARIES_FILE } from '../src/dataset/built-files.ts';
import { BULK_ROUTES, PRERENDERED_VIEWS } from '../src/api/operations.ts';
import { MANIFEST_FILE, writeManifest } from '../src/dataset/integrity.ts';
import { HISTORIES_FILE } from '../src/dataset/history-file.ts';
import { BULK_FORMATS, bulkFile } from '../src/api/bulk.ts';
import { releasesDir } from '../src/api/releases.ts';
import { installReleases, ReleaseBodyError } from '../src/dataset/release-bodies.ts';
import { DEFAULT_RELEASES_DIR, readManifests } from '../src/dataset/release-manifest.ts';
import type { DatasetCore } from '../src/dataset/artifact.ts';

/** Thrown when the build output is not a release; the message says what is wrong. */
export class PostbuildError extends Error {}

/** Each step says what it does and, when done, how much and how long (stderr). */
function progressFrom(t0: number): (text: string) => void {
  return (text) =>
    console.error(`postbuild: ${text} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** The JSON Schemas and Scalar's self-contained browser bundle, served from our own origin. */
function publishStatic(client: string): void {
  cpSync(path.resolve('schemas'), path.join(client, 'schemas'), { recursive: true });
  // The package does not export the file; its package.json `browser` field names it.
  const scalarMain = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const scalarRoot = scalarMain.slice(0, scalarMain.lastIndexOf(`${path.sep}dist${path.sep}`));
  const scalarPkg = JSON.parse(readFileSync(path.join(scalarRoot, 'package.json'), 'utf8')) as {
    browser: string;
  };
  mkdirSync(path.join(client, 'scalar'), { recursive: true });
  cpSync(path.join(scalarRoot, scalarPkg.browser), path.join(client, 'scalar', 'standalone.js'));
}

function checkOutput(client: string): void {
  for (const required of [
    ...PRERENDERED_VIEWS.map((route) => route.slice(1)),
    ...BULK_ROUTES.flatMap((route) => BULK_FORMATS.map((format) => bulkFile(route, format))),
    'openapi.json',
    'scalar/standalone.js',
  ]) {
    if (!existsSync(path.join(client, required)))
      throw new PostbuildError(`build output is missing dist/client/${required}`);
  }
}

/**
 * Sizes and SHA-256 of everything the server loads, verified at every start (integrity.ts). The
 * profile ndjson files are not covered: the server reads the pack made from them, and hashing them
 * would add ~1 s to every start at 100,000 assets.
 */
function manifestFiles(dist: string): string[] {
  const withCodings = (file: string) =>
    [file, `${file}.br`, `${file}.gz`].filter((f) => existsSync(path.join(dist, f)));
  return [
    ...PRERENDERED_VIEWS.flatMap((route) => withCodings(`client${route}`)),
    `client/${PROFILES_PACK.split(path.sep).join('/')}`,
    `client/${HISTORIES_FILE}`,
    `client/${SUMMARIES_FILE}`,
    `client/${REGISTRY_QUERY_FILE}`,
    // The CSV and NDJSON bodies of the unfiltered dataset views, with their codings.
    ...BULK_ROUTES.flatMap((route) =>
      BULK_FORMATS.flatMap((format) => withCodings(`client/${bulkFile(route, format)}`)),
    ),
  ];
}

/**
 * Finishes the release in `client` (dist/client) of `core`, whose file is `datasetFile`. Throws
 * PostbuildError when the output is incomplete or a committed release does not match its digest.
 */
export function postbuild(client: string, core: Readonly<DatasetCore>, datasetFile: string): void {
  const progress = progressFrom(performance.now());
  progress('[1/3] publishing the JSON Schemas and the Scalar bundle');
  publishStatic(client);
  checkOutput(client);
  progress('[2/3] precompressing (brotli 11, gzip 9), by file group');
  const compressed = precompressDir(client, (g) =>
    progress(
      g.stage === 'start'
        ? `  ${g.done + 1}/${g.groups} ${g.group}: compressing ${g.files} files, ${(g.bytes / 1024).toFixed(0)} KB…`
        : `  ${g.done}/${g.groups} ${g.group}: ${g.files} compressed in ${g.seconds.toFixed(1)} s`,
    ),
  );
  progress('[3/3] writing the integrity manifest');
  const dist = path.dirname(client);
  const manifest = writeManifest(dist, path.resolve(datasetFile), manifestFiles(dist));
  // Point-in-time reads: the committed releases (data/releases/), checked against their digests;
  // never an earlier local build (releases.ts).
  try {
    const current = core.dataset_version;
    const installed = installReleases(
      readManifests(),
      DEFAULT_RELEASES_DIR,
      releasesDir(path.resolve(datasetFile)),
      current,
    );
    progress(
      `  dataset_version= answers ${[current, ...installed].join(', ')} (the current data and the committed releases)`,
    );
  } catch (error) {
    if (!(error instanceof ReleaseBodyError)) throw error;
    throw new PostbuildError(error.message);
  }
  console.log(
    `postbuild: schemas and the Scalar bundle published, ${compressed} files precompressed, ${Object.keys(manifest.files).length} artifacts in ${MANIFEST_FILE}.`,
  );
}
