// A response body prepared once: its codings and a strong ETag per coding. Bodies come three
// ways: eagerly compressed (small prebuilt views), with codings written at build (.br/.gz files
// and the profiles pack), or gzip only (large registries: identity is decoded on first use and
// kept while the body is cached). Bodies computed for one request compress lazily.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES, compress, contentTag, type Effort } from '../lib/compression.ts';
import { sha256OfFile } from '../lib/file-hash.ts';
import type { Coding, PreparedBody } from '../api/answers.ts';

export type { Coding };
/** The server's name for a prepared body (the answers' shape: src/api/answers.ts). */
export type Precomputed = PreparedBody;

/**
 * A built file served from disk (a large CSV or NDJSON export: 200 MB at 100,000 assets): only
 * its content tag is computed at start (hashed in 1 MB reads), and each response streams the
 * file of its coding (.br/.gz siblings written at build).
 */
export function streamedFile(file: string, contentType: string): Precomputed {
  const tag = sha256OfFile(file).toString('base64url').slice(0, 22);
  const files: Partial<Record<Coding, { path: string; size: number }>> = {
    identity: { path: file, size: statSync(file).size },
  };
  for (const [coding, ext] of [
    ['gzip', '.gz'],
    ['br', '.br'],
  ] as const)
    if (existsSync(file + ext))
      files[coding] = { path: file + ext, size: statSync(file + ext).size };
  const codings = (['br', 'gzip', 'identity'] as const).filter((c) => files[c]);
  const e = etagsOf(tag, codings.length > 1);
  return {
    contentType,
    tag,
    codings,
    bodyFor: (coding) => readFileSync(files[coding]?.path ?? file),
    etagFor: (coding) => e[coding],
    fileFor: (coding) => files[coding] ?? files.identity!,
  };
}

export function precompute(
  body: Buffer | string,
  contentType: string,
  options: {
    compressible?: boolean;
    effort?: Effort;
    eager?: boolean;
    precompressed?: { gzip?: Buffer; br?: Buffer };
    /** The content tag when already known (the pack stores it), to skip hashing. */
    tag?: string;
  } = {},
): Precomputed {
  const { compressible = true, effort = 'max', eager = true } = options;
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const tag = options.tag ?? contentTag(identity);
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
  const e = etagsOf(tag, compressed);
  return {
    contentType,
    tag,
    codings: compressed ? ['br', 'gzip', 'identity'] : ['identity'],
    bodyFor,
    etagFor: (coding) => e[coding],
  };
}

/**
 * A body stored only gzip-compressed: identity is decoded the first time a client cannot take
 * gzip, then kept with this object (which lives in a bounded cache, so memory stays bounded).
 */
export function gzipOnly(gzip: Buffer, tag: string, contentType: string): Precomputed {
  const e = etagsOf(tag, true);
  let identity: Buffer | undefined;
  return {
    contentType,
    tag,
    codings: ['gzip', 'identity'],
    bodyFor: (coding) => (coding === 'identity' ? (identity ??= gunzipSync(gzip)) : gzip),
    etagFor: (coding) => e[coding === 'br' ? 'gzip' : coding],
  };
}

/** A built file with the .br/.gz siblings written at build; without them, codings are made lazily. */
export function precomputeFile(
  file: string,
  contentType: string,
  compressible = true,
): Precomputed {
  const read = (f: string) => (existsSync(f) ? readFileSync(f) : undefined);
  const gzip = compressible ? read(`${file}.gz`) : undefined;
  const br = compressible ? read(`${file}.br`) : undefined;
  return precompute(readFileSync(file), contentType, {
    compressible,
    eager: false,
    precompressed: { ...(gzip ? { gzip } : {}), ...(br ? { br } : {}) },
  });
}

/** What a compressed coding adds to the content tag in its ETag: "<tag>-gz", "<tag>-br". */
const TAG_SUFFIX = { gzip: '-gz', br: '-br' } as const;
const TAG_SUFFIXES: readonly string[] = Object.values(TAG_SUFFIX);

/**
 * If-None-Match uses weak comparison (RFC 9110 §13.1.2). A tag matches any coding of the same
 * content, since all codings of it carry the same data.
 */
export function matchesTag(ifNoneMatch: string | null | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  // The common case, a client sending back the one tag it was given, without allocating.
  const n = ifNoneMatch.length;
  if (
    n >= tag.length + 2 &&
    ifNoneMatch.charCodeAt(0) === 34 /* " */ &&
    ifNoneMatch.charCodeAt(n - 1) === 34 &&
    ifNoneMatch.startsWith(tag, 1)
  ) {
    const suffixLength = n - tag.length - 2;
    if (suffixLength === 0) return true;
    for (const suffix of TAG_SUFFIXES)
      if (suffixLength === suffix.length && ifNoneMatch.startsWith(suffix, tag.length + 1))
        return true;
  }
  if (ifNoneMatch.trim() === '*') return true;
  for (const raw of ifNoneMatch.split(',')) {
    const opaque = raw.trim().replace(/^W\//, '');
    if (opaque === `"${tag}"` || TAG_SUFFIXES.some((suffix) => opaque === `"${tag}${suffix}"`))
      return true;
  }
  return false;
}

/** Each coding is its own representation, so each gets its own strong validator. */
export function etagsOf(tag: string, compressed: boolean): Record<Coding, string> {
  return compressed
    ? { identity: `"${tag}"`, gzip: `"${tag}${TAG_SUFFIX.gzip}"`, br: `"${tag}${TAG_SUFFIX.br}"` }
    : { identity: `"${tag}"`, gzip: `"${tag}"`, br: `"${tag}"` };
}

/** If-None-Match against any coding of this body. */
export function notModified(ifNoneMatch: string | undefined, p: Precomputed): boolean {
  return matchesTag(ifNoneMatch, p.tag);
}
