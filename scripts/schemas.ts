// npm run schemas — regenerate schemas/ from the zod source (and the operations table, for the
// response schemas); --check fails on drift instead; --undescribed lists every property of the
// published schemas and /openapi.json still without a description, by the key
// src/domain/field-descriptions.ts takes, and any key there that names no property.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { editorSettings } from '../src/domain/json-schemas.ts';
import { generateAll } from '../src/authoring/published-schemas.ts';
import { staleKeys, staleShared, undescribed } from '../src/domain/schema-descriptions.ts';
import { schemaOwners } from './schema-owners.ts';

if (process.argv.includes('--undescribed')) {
  const { files, components } = schemaOwners();
  const missing = [...new Set([...undescribed(files), ...undescribed(components)])];
  const stale = [
    ...staleKeys([...files, ...components]),
    ...staleShared([...files, ...components]),
  ];
  for (const key of missing) console.log(`undescribed  ${key}`);
  for (const key of stale) console.log(`stale key    ${key}`);
  console.log(
    missing.length || stale.length
      ? `${missing.length} propert${missing.length === 1 ? 'y' : 'ies'} without a description, ${stale.length} stale key(s): edit src/domain/field-descriptions.ts.`
      : 'Every property of the published schemas has a description.',
  );
  process.exit(missing.length || stale.length ? 1 : 0);
}

const check = process.argv.includes('--check');
const drifted: string[] = [];
const generated = new Map([
  ...[...generateAll()].map(([file, text]): [string, string] => [`schemas/${file}`, text]),
  ['.vscode/settings.json', editorSettings()],
]);
for (const [file, text] of generated) {
  const target = path.resolve(file);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
  if (current === text) continue;
  if (check) drifted.push(file);
  else {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote ${file}`);
  }
}
if (drifted.length) {
  console.error(
    `generated files have drifted from src/domain and the operations table: ${drifted.join(', ')}\nRun \`npm run schemas\` and commit the result.`,
  );
  process.exit(1);
}
if (check) console.log('schemas/ matches src/domain and the operations table.');
