// Compression shared by the build (profile pack, precompressed files) and the server (bodies
// computed per request): the size below which nothing is compressed, the codings' settings and
// the content tag that names a body in every coding.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';

/** Bodies below this size are not worth compressing. */
export const MIN_COMPRESS_BYTES = 512;

export type Effort = 'max' | 'fast';

/**
 * Bodies computed per request from this size on get the cheapest levels (gzip 1, brotli 1): at
 * this size compressing dominates the request's CPU, and level 4 saves few bytes over level 1
 * for several times the CPU (bench/results/2026-11-22-*-scaling.md).
 */
export const FAST_LARGE_BYTES = 64 * 1024;

/** The zlib level (gzip) and quality (brotli) of an effort for a body of `size` bytes. */
export function compressionLevels(effort: Effort, size: number): { gzip: number; br: number } {
  if (effort === 'max') return { gzip: 9, br: 11 };
  return size >= FAST_LARGE_BYTES ? { gzip: 1, br: 1 } : { gzip: 4, br: 4 };
}

/** The zlib options of a coding at an effort for `identity`. */
function codingOptions(
  identity: Buffer,
  coding: 'gzip' | 'br',
  effort: Effort,
): ZlibOptions & BrotliOptions {
  const levels = compressionLevels(effort, identity.length);
  if (coding === 'gzip') return { level: levels.gzip };
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: levels.br,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      // A window no larger than the body: the default (4 MB) allocates megabytes per call, which
      // the allocator keeps after a burst of computed responses.
      [constants.BROTLI_PARAM_LGWIN]: Math.min(
        24,
        Math.max(16, Math.ceil(Math.log2(identity.length + 1))),
      ),
    },
  };
}

export function compress(identity: Buffer, coding: 'gzip' | 'br', effort: Effort): Buffer {
  const options = codingOptions(identity, coding, effort);
  return coding === 'gzip' ? gzipSync(identity, options) : brotliCompressSync(identity, options);
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * `compress` on libuv's thread pool (the same bytes): the build compresses many bodies at once on
 * every core while its main thread goes on making the next ones.
 */
export function compressAsync(
  identity: Buffer,
  coding: 'gzip' | 'br',
  effort: Effort,
): Promise<Buffer> {
  const options = codingOptions(identity, coding, effort);
  return coding === 'gzip' ? gzipAsync(identity, options) : brotliAsync(identity, options);
}

export function contentTag(identity: Buffer): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 22);
}
