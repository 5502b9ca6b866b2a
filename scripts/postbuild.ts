// After `astro build`: publish the JSON Schemas under /schemas/ and check the build output.
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressDir } from './precompress.ts';
import { packProfiles } from '../src/server/profile-pack.ts';
import { PROFILES_PACK } from '../src/server/prebuilt.ts';

const client = path.resolve(process.env['TAI_DIST_DIR'] ?? 'dist', 'client');
cpSync(path.resolve('schemas'), path.join(client, 'schemas'), { recursive: true });
// Scalar's self-contained browser bundle, served from our own origin (no CDN).
// The package does not export the file; its package.json `browser` field names it.
const scalarMain = createRequire(import.meta.url).resolve('@scalar/api-reference');
const scalarRoot = scalarMain.slice(0, scalarMain.lastIndexOf(`${path.sep}dist${path.sep}`));
const scalarPkg = JSON.parse(readFileSync(path.join(scalarRoot, 'package.json'), 'utf8')) as {
  browser: string;
};
const scalar = path.join(scalarRoot, scalarPkg.browser);
mkdirSync(path.join(client, 'scalar'), { recursive: true });
cpSync(scalar, path.join(client, 'scalar', 'standalone.js'));
for (const required of [
  'v1/registry/assets',
  'v1/market/stablecoins',
  'v1/compliance/mica-status',
  'internal/registry-profiles.ndjson',
  'openapi.json',
  'scalar/standalone.js',
]) {
  if (!existsSync(path.join(client, required))) {
    console.error(`build output is missing dist/client/${required}`);
    process.exit(1);
  }
}
const compressed = precompressDir(client);
const packed = packProfiles(
  path.join(client, 'internal', 'registry-profiles.ndjson'),
  path.join(client, PROFILES_PACK),
);
console.log(
  `postbuild: schemas and the Scalar bundle published, ${compressed} files precompressed, ${packed} profiles packed.`,
);
