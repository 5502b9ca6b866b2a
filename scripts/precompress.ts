// Compresses the built site once, at build time: every compressible file in dist/client gets
// .br (quality 11; 6 above LARGE_FILE_BYTES) and .gz (level 9; 6 above it) siblings, which the server loads instead of compressing at
// start (the Scalar bundle alone takes seconds at brotli 11).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from '../src/lib/compression.ts';
import { walkFiles } from '../src/lib/walk.ts';

export const COMPRESSIBLE_FILE = /(\.(html|css|js|mjs|json|svg|txt|xml|ndjson)$)|(^|\/)v1\/[^.]+$/;

/** The group a file's progress is reported under: API bodies, then by extension. */
export function fileGroup(rel: string): string {
  if (/^v1\//.test(rel)) return 'API bodies';
  const ext = path.extname(rel).slice(1).toLowerCase();
  return ext === 'html' ? 'pages' : ext === 'js' || ext === 'mjs' ? 'scripts' : ext || 'other';
}

export interface PrecompressProgress {
  /** 'start' before a group (files and bytes are its candidates), 'done' after it. */
  stage: 'start' | 'done';
  group: string;
  files: number;
  bytes: number;
  seconds: number;
  /** Groups finished so far and in all. */
  done: number;
  groups: number;
}

export function precompressDir(
  client: string,
  onGroup?: (progress: PrecompressProgress) => void,
): number {
  const byGroup = new Map<string, string[]>();
  for (const file of walkFiles(client)) {
    const rel = path.relative(client, file).split(path.sep).join('/');
    // Build artifacts under internal/ are packed separately (per body), not served as files.
    if (!COMPRESSIBLE_FILE.test(rel) || rel.startsWith('internal/')) continue;
    const group = fileGroup(rel);
    const list = byGroup.get(group) ?? [];
    list.push(file);
    byGroup.set(group, list);
  }
  let count = 0;
  let done = 0;
  for (const [group, files] of byGroup) {
    const started = performance.now();
    onGroup?.({
      stage: 'start',
      group,
      files: files.length,
      bytes: files.reduce((n, f) => n + statSync(f).size, 0),
      seconds: 0,
      done,
      groups: byGroup.size,
    });
    let groupFiles = 0;
    let bytes = 0;
    for (const file of files) {
      if (compressFile(file)) {
        groupFiles++;
        bytes += statSync(file).size;
      }
    }
    count += groupFiles;
    onGroup?.({
      stage: 'done',
      group,
      files: groupFiles,
      bytes,
      seconds: (performance.now() - started) / 1000,
      done: ++done,
      groups: byGroup.size,
    });
  }
  return count;
}

/**
 * Above this size the best settings cost minutes for a few per cent (brotli 11 runs at about
 * 1 MB/s: a 200 MB bulk export of 100,000 assets took over three minutes), so large files get
 * brotli 6 and gzip 6, which keep most of the gain at a hundredth of the time.
 */
export const LARGE_FILE_BYTES = 4 * 1024 * 1024;

/** Writes .gz and .br beside one file; false when it is too small to be worth it. */
function compressFile(file: string): boolean {
  const body = readFileSync(file);
  if (body.length < MIN_COMPRESS_BYTES) return false;
  const large = body.length > LARGE_FILE_BYTES;
  writeFileSync(`${file}.gz`, gzipSync(body, { level: large ? 6 : 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: large ? 6 : 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  return true;
}
