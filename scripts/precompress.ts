// Compresses the built site once, at build time: every compressible file in dist/client gets
// .br (quality 11) and .gz (level 9) siblings, which the server loads instead of compressing at
// start (the Scalar bundle alone takes seconds at brotli 11).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from '../src/server/precomputed.ts';

export const COMPRESSIBLE_FILE = /(\.(html|css|js|mjs|json|svg|txt|xml|ndjson)$)|(^|\/)v1\/[^.]+$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

export function precompressDir(client: string): number {
  let count = 0;
  for (const file of walk(client)) {
    const rel = path.relative(client, file).split(path.sep).join('/');
    // Build artifacts under internal/ are packed separately (per body), not served as files.
    if (!COMPRESSIBLE_FILE.test(rel) || rel.startsWith('internal/')) continue;
    const body = readFileSync(file);
    if (body.length < MIN_COMPRESS_BYTES) continue;
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    count++;
  }
  return count;
}
