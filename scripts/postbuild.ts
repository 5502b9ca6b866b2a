// After `astro build`: publish the JSON Schemas under /schemas/, check the build output, move in
// the profile pack, summaries and histories the bodies pass wrote (scripts/bodies.ts) and write
// the integrity manifest (dist/integrity.json) the server verifies at start.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressDir } from './precompress.ts';
import {
  BODIES_STAMP,
  INTERNAL_FILES,
  PROFILES_PACK,
  REGISTRY_QUERY_FILE,
  SUMMARIES_FILE,
  bodiesDir,
} from '../src/dataset/built-files.ts';
import { BULK_ROUTES, PRERENDERED_VIEWS } from '../src/api/operations.ts';
import { MANIFEST_FILE, writeManifest } from '../src/dataset/integrity.ts';
import { HISTORIES_FILE } from '../src/dataset/history-file.ts';
import { BULK_FORMATS, bulkFile } from '../src/api/bulk.ts';
import { releasesDir } from '../src/api/releases.ts';
import { installReleases, ReleaseBodyError } from '../src/dataset/release-bodies.ts';
import { DEFAULT_RELEASES_DIR, readManifests } from '../src/dataset/release-manifest.ts';
import { datasetPath, readDataset } from '../src/dataset/artifact.ts';

const client = path.resolve(process.env['TAI_DIST_DIR'] ?? 'dist', 'client');
// Progress: each step says what it does and, when done, how much and how long (stderr).
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const progress = (text: string) => console.error(`postbuild: ${text} (${elapsed()})`);
/** A rename; a copy when the bodies directory is on another file system than dist. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(from, to);
    rmSync(from);
  }
}
progress('[1/4] publishing the JSON Schemas and the Scalar bundle');
cpSync(path.resolve('schemas'), path.join(client, 'schemas'), { recursive: true });
// Scalar's self-contained browser bundle, served from our own origin (no CDN).
// The package does not export the file; its package.json `browser` field names it.
const scalarMain = createRequire(import.meta.url).resolve('@scalar/api-reference');
const scalarRoot = scalarMain.slice(0, scalarMain.lastIndexOf(`${path.sep}dist${path.sep}`));
const scalarPkg = JSON.parse(readFileSync(path.join(scalarRoot, 'package.json'), 'utf8')) as {
  browser: string;
};
const scalar = path.join(scalarRoot, scalarPkg.browser);
mkdirSync(path.join(client, 'scalar'), { recursive: true });
cpSync(scalar, path.join(client, 'scalar', 'standalone.js'));
for (const required of [
  ...PRERENDERED_VIEWS.map((route) => route.slice(1)),
  ...BULK_ROUTES.flatMap((route) => BULK_FORMATS.map((format) => bulkFile(route, format))),
  'openapi.json',
  'scalar/standalone.js',
]) {
  if (!existsSync(path.join(client, required))) {
    console.error(`build output is missing dist/client/${required}`);
    process.exit(1);
  }
}
progress('[2/4] precompressing (brotli 11, gzip 9), by file group');
const compressed = precompressDir(client, (g) =>
  progress(
    g.stage === 'start'
      ? `  ${g.done + 1}/${g.groups} ${g.group}: compressing ${g.files} files, ${(g.bytes / 1024).toFixed(0)} KB…`
      : `  ${g.done}/${g.groups} ${g.group}: ${g.files} compressed in ${g.seconds.toFixed(1)} s`,
  ),
);
progress('[3/4] moving in the profile pack, summaries and histories of the bodies pass');
// The bodies pass (scripts/bodies.ts, before `astro build`) wrote them beside the dataset; the
// prerendered bodies Astro sent from the same directory are in dist/client now, so it goes.
const bodies = bodiesDir(datasetPath());
const stamp = path.join(bodies, BODIES_STAMP);
const passVersion = existsSync(stamp) ? readFileSync(stamp, 'utf8') : null;
if (passVersion !== readDataset().dataset_version) {
  console.error(
    `postbuild: ${passVersion ? `the bodies in ${bodies} are of dataset ${passVersion}, not the built one` : `${bodies} holds no complete bodies pass`}: run \`node scripts/bodies.ts\` after data:build (\`npm run build\` runs every step).`,
  );
  process.exit(1);
}
for (const rel of INTERNAL_FILES) {
  const from = path.join(bodies, ...rel.split('/'));
  const to = path.join(client, ...rel.split('/'));
  mkdirSync(path.dirname(to), { recursive: true });
  moveFile(from, to);
}
rmSync(bodies, { recursive: true, force: true });
progress(`  ${INTERNAL_FILES.join(', ')} moved in`);
progress('[4/4] writing the integrity manifest');
// Last: sizes and SHA-256 of everything the server loads, verified at every start (integrity.ts).
// The profile ndjson files are not covered: the server reads the pack made from them, and
// hashing them would add ~1 s to every start at 100,000 assets.
const dist = path.dirname(client);
const covered = [
  ...PRERENDERED_VIEWS.flatMap((route) => {
    const file = `client${route}`;
    return [file, `${file}.br`, `${file}.gz`].filter((f) => existsSync(path.join(dist, f)));
  }),
  `client/${PROFILES_PACK.split(path.sep).join('/')}`,
  `client/${HISTORIES_FILE}`,
  `client/${SUMMARIES_FILE}`,
  `client/${REGISTRY_QUERY_FILE}`,
  // The CSV and NDJSON bodies of the unfiltered dataset views, with their codings.
  ...BULK_ROUTES.flatMap((route) =>
    BULK_FORMATS.flatMap((format) => {
      const file = `client/${bulkFile(route, format)}`;
      return [file, `${file}.br`, `${file}.gz`].filter((f) => existsSync(path.join(dist, f)));
    }),
  ),
];
const manifest = writeManifest(dist, path.resolve(datasetPath()), covered);
// Point-in-time reads: the committed releases (data/releases/), checked against their digests;
// never an earlier local build (releases.ts).
try {
  const current = readDataset().dataset_version;
  const installed = installReleases(
    readManifests(),
    DEFAULT_RELEASES_DIR,
    releasesDir(path.resolve(datasetPath())),
    current,
  );
  progress(
    `  dataset_version= answers ${[current, ...installed].join(', ')} (the current data and the committed releases)`,
  );
} catch (error) {
  if (!(error instanceof ReleaseBodyError)) throw error;
  console.error(`postbuild: ${error.message}`);
  process.exit(1);
}
console.log(
  `postbuild: schemas and the Scalar bundle published, ${compressed} files precompressed, the bodies pass's ${INTERNAL_FILES.length} internal files moved in, ${Object.keys(manifest.files).length} artifacts in ${MANIFEST_FILE}.`,
);
