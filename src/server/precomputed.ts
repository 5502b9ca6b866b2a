// A response body prepared once: identity, gzip and brotli bytes and a strong ETag per coding.
// Prebuilt datasets compress eagerly at start with maximum effort; bodies computed for one
// request compress lazily, only in the coding the client chose, with fast settings.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';

export interface Precomputed {
  contentType: string;
  /** Content hash shared by all codings; the ETag of each coding adds a suffix. */
  tag: string;
  identity: Buffer;
  bodyFor(coding: Coding): Buffer;
  etagFor(coding: Coding): string;
}

/** Bodies below this size are not worth compressing. */
export const MIN_COMPRESS_BYTES = 512;

type Effort = 'max' | 'fast';

function compress(identity: Buffer, coding: 'gzip' | 'br', effort: Effort): Buffer {
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

export function precompute(
  body: Buffer | string,
  contentType: string,
  options: {
    compressible?: boolean;
    effort?: Effort;
    eager?: boolean;
    precompressed?: { gzip?: Buffer; br?: Buffer };
  } = {},
): Precomputed {
  const { compressible = true, effort = 'max', eager = true } = options;
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  const compressed = compressible && identity.length >= MIN_COMPRESS_BYTES;
  const cache: Partial<Record<Coding, Buffer>> = { identity, ...options.precompressed };
  const bodyFor = (coding: Coding): Buffer => {
    if (!compressed || coding === 'identity') return identity;
    return (cache[coding] ??= compress(identity, coding, effort));
  };
  if (eager && compressed) {
    bodyFor('gzip');
    bodyFor('br');
  }
  // Each coding is its own representation, so each gets its own strong validator.
  const etags: Record<Coding, string> = compressed
    ? { identity: `"${tag}"`, gzip: `"${tag}-gz"`, br: `"${tag}-br"` }
    : { identity: `"${tag}"`, gzip: `"${tag}"`, br: `"${tag}"` };
  return { contentType, tag, identity, bodyFor, etagFor: (coding) => etags[coding] };
}

/**
 * If-None-Match uses weak comparison (RFC 9110 §13.1.2). A tag matches any coding of the same
 * content, since all codings of it carry the same data.
 */
export function notModified(ifNoneMatch: string | undefined, p: Precomputed): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const raw of ifNoneMatch.split(',')) {
    const opaque = raw.trim().replace(/^W\//, '');
    if (opaque === `"${p.tag}"` || opaque === `"${p.tag}-gz"` || opaque === `"${p.tag}-br"`)
      return true;
  }
  return false;
}

/** A built file with the .br/.gz siblings written at build; without them, codings are made lazily. */
export function precomputeFile(
  file: string,
  contentType: string,
  compressible = true,
): Precomputed {
  const read = (f: string) => (existsSync(f) ? readFileSync(f) : undefined);
  const precompressed = compressible
    ? { ...optional('gzip', read(`${file}.gz`)), ...optional('br', read(`${file}.br`)) }
    : {};
  return precompute(readFileSync(file), contentType, { compressible, eager: false, precompressed });
}

function optional<K extends string>(key: K, value: Buffer | undefined): Partial<Record<K, Buffer>> {
  return value ? ({ [key]: value } as Record<K, Buffer>) : {};
}
