// After `astro build`: publish the JSON Schemas under /schemas/, check the build output, write and
// pack the profiles and write the integrity manifest (dist/integrity.json) the server verifies at start.
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressDir } from './precompress.ts';
import { packProfiles } from '../src/dataset/profile-pack.ts';
import { PROFILES_PACK, SUMMARIES_FILE } from '../src/dataset/built-files.ts';
import { BULK_ROUTES, PRERENDERED_VIEWS } from '../src/api/operations.ts';
import { assetProfileBody } from '../src/api/bodies.ts';
import { writeSummaries } from '../src/dataset/summary-file.ts';
import { MANIFEST_FILE, writeManifest } from '../src/dataset/integrity.ts';
import { HISTORIES_FILE, writeHistories } from '../src/dataset/history-file.ts';
import { BULK_FORMATS, bulkFile } from '../src/api/bulk.ts';
import { releasesDir } from '../src/api/releases.ts';
import { installReleases, ReleaseBodyError } from '../src/dataset/release-bodies.ts';
import { DEFAULT_RELEASES_DIR, readManifests } from '../src/dataset/release-manifest.ts';
import { datasetPath, readDataset, readProfiles } from '../src/dataset/artifact.ts';

const client = path.resolve(process.env['TAI_DIST_DIR'] ?? 'dist', 'client');
// Progress: each step says what it does and, when done, how much and how long (stderr).
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const progress = (text: string) => console.error(`postbuild: ${text} (${elapsed()})`);
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
progress('[3/4] writing and packing the asset profiles');
// Every profile's response body, one per line as "<TFIN>\t<body>", written here from the data
// build's output (no round trip through Astro); the pack and the summaries are made from it.
const PROFILE_BODIES = path.join(client, 'internal', 'registry-profiles.ndjson');
function writeProfileBodies(file: string): number {
  const core = readDataset();
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  let count = 0;
  try {
    const chunk: string[] = [];
    for (const profile of readProfiles()) {
      chunk.push(`${profile.tfin}\t${assetProfileBody(core, profile)}\n`);
      if (++count % 500 === 0) writeSync(fd, chunk.splice(0).join(''));
    }
    writeSync(fd, chunk.join(''));
  } finally {
    closeSync(fd);
  }
  return count;
}
progress(`  ${writeProfileBodies(PROFILE_BODIES)} profile bodies written`);
const packed = packProfiles(PROFILE_BODIES, path.join(client, PROFILES_PACK));
progress(`  ${packed} profiles packed`);
// The list summaries, in the pack's order: computed pages splice their rows from this file.
const summaries = writeSummaries(PROFILE_BODIES, path.join(client, ...SUMMARIES_FILE.split('/')));
progress(`  ${summaries} list summaries written`);
// The amount histories for `include=history` (the packed default profiles omit them).
const histories = writeHistories(
  path.resolve(datasetPath()),
  path.join(client, ...HISTORIES_FILE.split('/')),
);
progress(`  ${histories} amount histories written`);
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
  `postbuild: schemas and the Scalar bundle published, ${compressed} files precompressed, ${packed} profiles packed, ${Object.keys(manifest.files).length} artifacts in ${MANIFEST_FILE}.`,
);
