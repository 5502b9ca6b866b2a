// npm run schemas — regenerate schemas/ from the zod source (and the operations table, for the
// response schemas); --check fails on drift instead.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { editorSettings } from '../src/domain/json-schemas.ts';
import { generateAll } from '../src/authoring/published-schemas.ts';

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
