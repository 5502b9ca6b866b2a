// An importer is a folder of src/importers registered once in src/importers/index.ts (which
// `npm run data:import` and the refresh config read): every folder is registered, every entry
// loads an importer of its own name, and an importer reaches another importer's code only through
// src/importers/shared/ (what two importers use lives there), but for the exceptions listed below.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importers } from '../../src/importers/index.ts';

const ROOT = path.resolve('src/importers');
/** Folders that are not importers: the commons, and the refresh that runs the others. */
const NOT_IMPORTERS = new Set(['shared', 'refresh']);
const folders = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !NOT_IMPORTERS.has(e.name))
  .map((e) => e.name)
  .sort();

/** Imports of another importer's folder, each with its reason. */
const CROSSING: Record<string, string> = {
  'rwa-sheet -> defillama-adapters':
    "new asset records and the unknown-risk rules are the adapter importer's, written for its classes; the sheet's importer reuses them as they are",
};

/** `<from> -> <to>` for each relative import in `source` that leaves `folder` for another importer. */
export function crossings(folder: string, source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/(?:from|import\()\s*'(\.\.\/[^']+)'/g)) {
    const [up, to] = m[1]!.split('/');
    // `../index.ts` is the registry itself (the refresh runs what it lists), not an importer.
    if (up === '..' && to && !to.endsWith('.ts') && to !== '..' && to !== 'shared' && to !== folder)
      found.add(`${folder} -> ${to}`);
  }
  return [...found];
}

const sourcesOf = (folder: string) =>
  readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(path.join(ROOT, folder, f), 'utf8'));

describe('importers', () => {
  it('every importer folder is registered in src/importers/index.ts', async () => {
    const registeredFolders = new Set<string>();
    const index = readFileSync(path.join(ROOT, 'index.ts'), 'utf8');
    for (const m of index.matchAll(/import\('\.\/([^/']+)\//g)) registeredFolders.add(m[1]!);
    expect([...registeredFolders].sort()).toEqual(folders);
  });

  it('each entry loads an importer of its own name, with a summary', async () => {
    for (const [name, load] of Object.entries(importers)) {
      const importer = await load();
      expect(importer.name, name).toBe(name);
      expect(importer.summary.length, name).toBeGreaterThan(10);
      expect(typeof importer.run, name).toBe('function');
    }
  });

  it("reach another importer's code only through shared/ (or a listed exception)", () => {
    const found = [...NOT_IMPORTERS, ...folders]
      .filter((f) => f !== 'shared')
      .flatMap((folder) => sourcesOf(folder).flatMap((text) => crossings(folder, text)));
    const unlisted = [...new Set(found)].filter((c) => !(c in CROSSING));
    expect(unlisted).toEqual([]);
    // Each exception is still needed.
    for (const c of Object.keys(CROSSING)) expect(found, c).toContain(c);
  });

  it('shared/ imports no importer folder', () => {
    const found = sourcesOf('shared').flatMap((text) => crossings('shared', text));
    expect(found).toEqual([]);
  });

  it('finds a crossing in a static or a dynamic import, never a shared/ or own one', () => {
    const code = [
      "import { a } from '../coins/record.ts';",
      "import { b } from '../shared/csv.ts';",
      "const c = await import('../esma/index.ts');",
      "import { d } from './rows.ts';",
      "import { e } from '../../domain/common.ts';",
    ].join('\n');
    expect(crossings('rwa-sheet', code)).toEqual(['rwa-sheet -> coins', 'rwa-sheet -> esma']);
  });
});
