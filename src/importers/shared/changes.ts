// What an import would change in data/: shown as a unified diff by default, applied with
// --write. Applying is all or nothing: every file is written to a temporary name first.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';

export interface FileChange {
  /** Path relative to the project root, e.g. `data/mica/register/casps.yaml`. */
  path: string;
  after: string;
}

export interface PlannedChange extends FileChange {
  before: string | null;
}

export function plan(root: string, changes: readonly FileChange[]): PlannedChange[] {
  return changes
    .map((c) => {
      const file = path.join(root, c.path);
      return { ...c, before: existsSync(file) ? readFileSync(file, 'utf8') : null };
    })
    .filter((c) => c.before !== c.after);
}

export function renderDiff(planned: readonly PlannedChange[]): string {
  return planned
    .map((c) =>
      createTwoFilesPatch(
        c.before === null ? '/dev/null' : `a/${c.path}`,
        `b/${c.path}`,
        c.before ?? '',
        c.after,
        undefined,
        undefined,
        { context: 2 },
      ).replace(/^=+\n/, ''),
    )
    .join('');
}

export function applyChanges(root: string, planned: readonly PlannedChange[]): void {
  const staged = planned.map((c) => {
    const file = path.join(root, c.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.import-tmp`, c.after);
    return file;
  });
  for (const file of staged) renameSync(`${file}.import-tmp`, file);
}
