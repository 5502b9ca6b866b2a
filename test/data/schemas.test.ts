// The committed JSON Schemas are generated from the zod source; this fails when they drift.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN_SCHEMAS, SCHEMA_BANNER, editorSettings } from '../../src/domain/json-schemas.ts';
import { generateAll } from '../../src/authoring/published-schemas.ts';

describe('schemas/', () => {
  for (const [file, text] of generateAll()) {
    it(`${file} matches src/domain (run \`npm run schemas\` after changing a zod schema)`, () => {
      expect(readFileSync(path.join('schemas', file), 'utf8')).toBe(text);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(parsed['$comment']).toBe(SCHEMA_BANNER);
      expect(parsed['$id']).toBe(`/schemas/${file}`);
    });
  }
});

describe('editor schema mapping (.vscode/settings.json)', () => {
  it('maps every data schema to the files it describes', () => {
    const dataSchemas = DOMAIN_SCHEMAS.filter((p) => p.file.startsWith('data/'));
    expect(dataSchemas.length).toBeGreaterThan(0);
    expect(dataSchemas.filter((p) => !p.edits).map((p) => p.file)).toEqual([]);
    const settings = editorSettings();
    for (const p of dataSchemas) expect(settings).toContain(`"./schemas/${p.file}": "${p.edits}"`);
  });
});
