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
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildManifest,
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
const manifest = buildManifest(path.resolve(values.root), values.version);
const dir = path.resolve(values.out);
mkdirSync(dir, { recursive: true });
// One manifest per dataset date: an earlier cut of the same release gives way.
for (const f of readdirSync(dir))
  if (f.startsWith(`${manifest.dataset_date}.`) && f !== `${manifest.dataset_version}.json`) {
    rmSync(path.join(dir, f));
    console.log(`removed ${path.relative(process.cwd(), path.join(dir, f))} (same release)`);
  }
const file = path.join(dir, `${manifest.dataset_version}.json`);
writeFileSync(file, manifestText(manifest));
console.log(
  `wrote ${path.relative(process.cwd(), file)}: ${RECORD_KINDS.map((k) => `${Object.keys(manifest.records[k]).length} ${k.replace('_', ' ')}`).join(', ')}.`,
);
// Its detached signature beside it (scripts/sign-release.ts), with RELEASE_SIGNING_KEY_FILE.
await signRelease(file);
