// npm run lint:openapi — the built /openapi.json must pass a standard OpenAPI 3.1 validator and
// Spectral (OpenAPI + OWASP API Security rulesets, .spectral.yaml) with zero errors.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';

const file = path.resolve('dist/client/openapi.json');
const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
// The validator takes a path too: give it the file, so what is checked is exactly what is served.
const result = await validate(file);
if (!result.valid) {
  console.error('OpenAPI validation failed:');
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`openapi-parser: ${file} is a valid OpenAPI ${String(doc['openapi'])} document.`);
try {
  execFileSync(
    process.execPath,
    [
      path.resolve('node_modules/@stoplight/spectral-cli/dist/index.js'),
      'lint',
      file,
      '--ruleset',
      '.spectral.yaml',
      '--fail-severity',
      'error',
      '--display-only-failures',
    ],
    {
      stdio: 'inherit',
    },
  );
  console.log('spectral: no errors (OpenAPI and OWASP rulesets).');
} catch {
  process.exit(1);
}
