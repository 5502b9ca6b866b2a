// npm run client:generate [-- --check]: the generated files of both clients, the TypeScript types
// (clients/typescript/scripts/generate.ts) and the Python models and operations
// (clients/python/scripts/generate.ts); with --check, nothing is written and a stale file fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const script of ['typescript/scripts/generate.ts', 'python/scripts/generate.ts']) {
  const run = spawnSync(process.execPath, [path.join(here, script), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
