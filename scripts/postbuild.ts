// After `astro build`: publish the JSON Schemas under /schemas/ and check the build output.
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';

const client = path.resolve('dist', 'client');
cpSync(path.resolve('schemas'), path.join(client, 'schemas'), { recursive: true });
for (const required of ['v1/registry/assets', 'internal/registry-profiles.ndjson']) {
  if (!existsSync(path.join(client, required))) {
    console.error(`build output is missing dist/client/${required}`);
    process.exit(1);
  }
}
console.log('postbuild: schemas published, build output complete.');
