// npm run build — builds a release beside the one being served, then switches to it at once.
//
// A build used to write into dist/ and build/ in place: while it ran, the instance and the edge
// served a half-written release (gzip clients got 500s for the whole build) and, after it, the
// edge sent the new bytes under the running instance's ETags. Now every build goes to a fresh
// directory, `.releases/<id>/` (its dist/ and build/), and only a complete, checked release is
// switched to, by replacing one symlink (`.releases/current`, a rename: atomic). `dist` and
// `build` are symlinks through it, so every reader sees one whole release or the other.
// A running instance keeps the release it started with (it resolves the links at start and
// hands the edge its own release's root), so the previous releases stay on disk: the newest
// KEEP_RELEASES and the current one are kept, older ones removed.
//
// TAI_DIST_DIR and TAI_DATASET (as the server reads them) name the links; default ./dist and
// ./build/dataset.json.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { switchLink } from '../src/dataset/release-dirs.ts';

/** Releases kept besides the current one: enough for instances not yet restarted. */
const KEEP_RELEASES = 3;

const distLink = path.resolve(process.env['TAI_DIST_DIR'] ?? 'dist');
const datasetFile = path.resolve(process.env['TAI_DATASET'] ?? path.join('build', 'dataset.json'));
const buildLink = path.dirname(datasetFile);
const releases = path.join(path.dirname(distLink), '.releases');
const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
const stage = path.join(releases, id);
mkdirSync(path.join(stage, 'build'), { recursive: true });

const node = process.execPath;
const env = {
  ...process.env,
  TAI_DIST_DIR: path.join(stage, 'dist'),
  TAI_DATASET: path.join(stage, 'build', path.basename(datasetFile)),
};
const run = (args: string[]) => execFileSync(node, args, { stdio: 'inherit', env });
try {
  run(['scripts/data.ts', 'build', '--out', env.TAI_DATASET]);
  // The one emitter: one process parses the core once, writes every body straight into
  // dist/client, runs `astro build` on the same core and finishes the release (schemas,
  // precompression, integrity manifest).
  run(['scripts/emit.ts']);
} catch {
  rmSync(stage, { recursive: true, force: true });
  console.error(`build: failed; the release being served is unchanged (${stage} removed).`);
  process.exit(1);
}

/**
 * `link` becomes a symlink to `target` (relative). A real directory left by a build of an earlier
 * version moves into .releases/ first (the one moment the name is briefly absent: once).
 */
function ensureLink(link: string, target: string): void {
  const stat = existsSync(link) || isLink(link) ? lstatSync(link) : null;
  if (stat?.isSymbolicLink()) {
    switchLink(link, target);
    return;
  }
  // Named to sort before every release id: the first to be removed.
  if (stat) renameSync(link, path.join(releases, `0-in-place-${path.basename(link)}-${id}`));
  switchLink(link, target);
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

// The links through `current` are written once; the switch itself is one rename.
ensureLink(distLink, path.join(releases, 'current', 'dist'));
ensureLink(buildLink, path.join(releases, 'current', 'build'));
switchLink(path.join(releases, 'current'), stage);

const old = readdirSync(releases)
  .filter((name) => name !== 'current' && name !== id && !name.startsWith('.'))
  .sort()
  .reverse()
  .slice(KEEP_RELEASES - 1);
for (const name of old) rmSync(path.join(releases, name), { recursive: true, force: true });
console.log(
  `build: release ${id} is current (${path.relative(process.cwd(), stage)}); ${old.length} old release(s) removed.`,
);
