// Releases side by side (scripts/build.ts): `dist` and `build` are symlinks through
// `.releases/current`, switched by one rename. Readers resolve the links once, at start, and keep
// the release they resolved (a later switch never mixes two releases in one process).
import { realpathSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/** Points `link` at `target` (a relative symlink) in one rename: readers see one or the other. */
export function switchLink(link: string, target: string): void {
  const tmp = `${link}.switch-${process.pid}`;
  try {
    unlinkSync(tmp);
  } catch {
    // none left from an interrupted switch
  }
  symlinkSync(path.relative(path.dirname(link), target), tmp);
  renameSync(tmp, link);
}

/** The physical directory behind `dir` (links resolved): the release a process runs. */
export function resolvedRelease(dir: string): string {
  return realpathSync(path.resolve(dir));
}
