// npm run data:release — write the release manifest of the data (data/releases/<version>.json):
// every record's id, content hash and last_changed, from which /docs/changelog lists what each
// release added, changed and removed. Generated, never edited; commit it with the data.
//
// Cutting a release: raise `dataset_date` in data/release.yaml, refresh the data, `npm run
// data:check`, then `npm run data:release` and commit data/ (with the new manifest) and a
// CHANGELOG.md entry. While the date stays, re-running replaces that release's manifest (one
// manifest per dataset date); a test fails when the manifest of the current data is missing or
// stale. `--root DIR --version V` writes the manifest of an earlier release's data (a worktree of
// its commit) into this repository's data/releases/.
//
// Beside the manifest it commits the release's body: the data built (`data.ts build`, dated at the
// dataset date so the same data gives the same bytes) and gzipped, its digests in the manifest.
// `dataset_version=` answers from these committed bodies only (src/dataset/release-bodies.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeReleaseBody } from '../src/dataset/release-bodies.ts';
import {
  buildManifest,
  currentVersion,
  DEFAULT_RELEASES_DIR,
  manifestText,
  RECORD_KINDS,
} from '../src/dataset/release-manifest.ts';
import { signRelease } from './sign-release.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: process.cwd() },
    version: { type: 'string' },
    out: { type: 'string', default: DEFAULT_RELEASES_DIR },
  },
});
const root = path.resolve(values.root);
const manifest = buildManifest(root, values.version);
const dir = path.resolve(values.out);
mkdirSync(dir, { recursive: true });

// The body: built from the same data; its version must be the manifest's.
const scratch = mkdtempSync(path.join(tmpdir(), 'tai-release-'));
try {
  const built = path.join(scratch, 'dataset.json');
  execFileSync(
    process.execPath,
    [path.resolve(import.meta.dirname, 'data.ts'), 'build', '--root', root, '--out', built],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        SOURCE_DATE_EPOCH: String(Date.parse(`${manifest.dataset_date}T00:00:00Z`) / 1000),
      },
    },
  );
  const builtVersion = currentVersion(root);
  if (builtVersion !== manifest.dataset_version) {
    console.error(
      `the data under ${root} is ${builtVersion}, not ${manifest.dataset_version}: run data:release in a worktree of that release's commit`,
    );
    process.exit(1);
  }
  manifest.body = writeReleaseBody(built, dir, manifest.dataset_version);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// One manifest per dataset date: an earlier cut of the same release gives way.
for (const f of readdirSync(dir))
  if (f.startsWith(`${manifest.dataset_date}.`) && !f.startsWith(`${manifest.dataset_version}.`)) {
    rmSync(path.join(dir, f));
    console.log(`removed ${path.relative(process.cwd(), path.join(dir, f))} (same release)`);
  }
const file = path.join(dir, `${manifest.dataset_version}.json`);
writeFileSync(file, manifestText(manifest));
console.log(
  `wrote ${path.relative(process.cwd(), file)}: ${RECORD_KINDS.map((k) => `${Object.keys(manifest.records[k]).length} ${k.replace('_', ' ')}`).join(', ')}; body ${manifest.body.core.file}, ${manifest.body.profiles.file}.`,
);
// Its detached signature beside it (scripts/sign-release.ts), with RELEASE_SIGNING_KEY_FILE.
await signRelease(file);
