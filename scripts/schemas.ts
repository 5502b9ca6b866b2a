// npm run schemas — regenerate schemas/ from the zod source; --check fails on drift instead.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { generateAll } from '../src/domain/json-schemas.ts';

const check = process.argv.includes('--check');
const dir = path.resolve('schemas');
const drifted: string[] = [];
for (const [file, text] of generateAll()) {
  const target = path.join(dir, file);
  const current = existsSync(target) ? readFileSync(target, 'utf8') : null;
  if (current === text) continue;
  if (check) drifted.push(file);
  else {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote schemas/${file}`);
  }
}
if (drifted.length) {
  console.error(
    `schemas/ has drifted from src/domain: ${drifted.join(', ')}\nRun \`npm run schemas\` and commit the result.`,
  );
  process.exit(1);
}
if (check) console.log('schemas/ matches src/domain.');
