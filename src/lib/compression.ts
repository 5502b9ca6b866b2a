// Compression shared by the build (profile pack, precompressed files) and the server (bodies
// computed per request): the size below which nothing is compressed, the codings' settings and
// the content tag that names a body in every coding.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bodies below this size are not worth compressing. */
export const MIN_COMPRESS_BYTES = 512;

export type Effort = 'max' | 'fast';

export function compress(identity: Buffer, coding: 'gzip' | 'br', effort: Effort): Buffer {
  if (coding === 'gzip') return gzipSync(identity, { level: effort === 'max' ? 9 : 4 });
  return brotliCompressSync(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === 'max' ? 11 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      // A window no larger than the body: the default (4 MB) allocates megabytes per call, which
      // the allocator keeps after a burst of computed responses.
      [constants.BROTLI_PARAM_LGWIN]: Math.min(
        24,
        Math.max(16, Math.ceil(Math.log2(identity.length + 1))),
      ),
    },
  });
}

export function contentTag(identity: Buffer): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 22);
}
