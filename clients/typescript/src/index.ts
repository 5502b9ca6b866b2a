// The typed client of the Tokenized Asset Intelligence API: openapi-fetch over the types
// generated from /openapi.json (schema.ts), with what every caller needs around it: the key,
// the RateLimit fields, waiting out a 429 as Retry-After says, conditional requests (ETag /
// If-None-Match, answered from a bounded cache on 304), cursor paging, the bulk formats, and
// verification of each answer's signature against the service's published keys.
import createClient, { type Client } from 'openapi-fetch';
import type { DatasetPath, operations, paths } from './schema.ts';
import { readRateLimit, retryAfterSeconds, type RateLimitState } from './rate-limit.ts';
import { keySource, verifyResponse, type PublicJwk } from './verify.ts';

export type { paths, operations, DatasetPath, RateLimitState, PublicJwk };
export { SignatureError } from './verify.ts';

export interface TaiClientOptions {
  /** The deployment, e.g. https://api.example.org (no trailing slash needed). */
  baseUrl: string;
  /** Sent as X-API-Key (never in the query string). */
  apiKey?: string;
  /** 429 and 503 answers are retried this many times when Retry-After allows (default 2). */
  retries?: number;
  /** A Retry-After longer than this (seconds) is not waited for: the answer is returned (default 60). */
  maxRetryAfterSeconds?: number;
  /** Answers kept for conditional requests (default 64; 0 switches them off). */
  cacheEntries?: number;
  /**
   * Verify every answer's signature (default false). Answers are then asked for uncompressed,
   * since the digest covers the bytes as sent and fetch decompresses what it receives.
   */
  verifySignatures?: boolean;
  /** The keys to verify with (default: fetched from /.well-known/jwks.json). */
  jwks?: { keys: PublicJwk[] };
  fetch?: typeof globalThis.fetch;
}

/** A problem answer (RFC 9457) as an error. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly problem: { type?: string; title?: string; code?: string; detail?: string };
  constructor(status: number, problem: ApiError['problem']) {
    super(`${status} ${problem.code ?? problem.title ?? ''}: ${problem.detail ?? ''}`.trim());
    this.status = status;
    this.problem = problem;
  }
}

/** The list's filters, sort and page size (the cursor and the format are the client's business). */
type ListQuery = Omit<
  NonNullable<operations['listRegistryAssets']['parameters']['query']>,
  'cursor' | 'format'
>;
type ListBody = operations['listRegistryAssets']['responses']['200']['content']['application/json'];
export type BulkFormat = 'csv' | 'ndjson';
/** The query parameters of a dataset operation, as typed by /openapi.json (less the format). */
export type BulkQuery<P extends DatasetPath> = Omit<
  NonNullable<paths[P]['get']['parameters']['query']>,
  'format' | 'cursor'
>;

const ACCEPT: Record<BulkFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };
/** Bodies larger than this are not kept for conditional requests. */
const MAX_CACHED_BYTES = 4_000_000;

interface Kept {
  etag: string;
  body: Uint8Array;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TaiClient {
  /** The typed client: `api.GET('/v1/registry/asset', { params: { query: { tfin } } })`. */
  api: Client<paths>;
  /** The RateLimit state of the latest answer (null before the first or without the fields). */
  rateLimit(): RateLimitState | null;
  /**
   * Every page of the registry list for `query`, following `meta.next_cursor`. Without `limit` the
   * list answers every record the query selects in one page (no query: the whole registry).
   */
  assetPages(query?: ListQuery): AsyncGenerator<ListBody>;
  /** A dataset operation in a bulk format, as text (CSV or NDJSON). */
  bulk<P extends DatasetPath>(path: P, format: BulkFormat, query?: BulkQuery<P>): Promise<string>;
}

export function createTaiClient(options: TaiClientOptions): TaiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 2;
  const maxWait = options.maxRetryAfterSeconds ?? 60;
  const cacheEntries = options.cacheEntries ?? 64;
  const verifying = options.verifySignatures ?? false;
  const keyOf = keySource(async () => {
    if (options.jwks) return options.jwks;
    const res = await baseFetch(`${baseUrl}/.well-known/jwks.json`);
    if (!res.ok) throw new Error(`${baseUrl}/.well-known/jwks.json answered ${res.status}`);
    return (await res.json()) as { keys: PublicJwk[] };
  });
  // Oldest out first (a Map keeps insertion order): bounded by cacheEntries.
  const cache = new Map<string, Kept>();
  let lastRateLimit: RateLimitState | null = null;

  async function send(request: Request): Promise<Response> {
    const headers = new Headers(request.headers);
    if (options.apiKey) headers.set('X-API-Key', options.apiKey);
    if (verifying) headers.set('Accept-Encoding', 'identity');
    const key =
      cacheEntries > 0 && request.method === 'GET'
        ? `${headers.get('accept') ?? ''} ${request.url}`
        : null;
    const kept = key ? cache.get(key) : undefined;
    if (kept) headers.set('If-None-Match', kept.etag);
    for (let attempt = 0; ; attempt++) {
      const res = await baseFetch(request.url, {
        method: request.method,
        headers,
        signal: request.signal,
      });
      lastRateLimit = readRateLimit(res.headers) ?? lastRateLimit;
      if ((res.status === 429 || res.status === 503) && attempt < retries) {
        const wait = retryAfterSeconds(res.headers);
        if (wait !== null && wait <= maxWait) {
          await res.body?.cancel();
          await sleep(wait * 1000);
          continue;
        }
      }
      if (res.status === 304 && kept) {
        // Fresh again: the kept answer (verified when it was kept) stands for this one.
        cache.delete(key!);
        cache.set(key!, kept);
        return new Response(kept.body.slice(), { status: 200, headers: kept.headers });
      }
      const body = new Uint8Array(await res.arrayBuffer());
      if (verifying && request.method !== 'HEAD')
        await verifyResponse(res.status, res.headers, body, keyOf);
      const etag = res.headers.get('etag');
      if (key && res.status === 200 && etag && body.length <= MAX_CACHED_BYTES) {
        cache.delete(key);
        cache.set(key, { etag, body, headers: res.headers });
        if (cache.size > cacheEntries) cache.delete(cache.keys().next().value!);
      }
      const out = new Headers(res.headers);
      // fetch has decoded the body already: say so, or a consumer would decode it twice.
      out.delete('content-encoding');
      out.delete('content-length');
      return new Response(res.status === 204 || res.status === 304 ? null : body, {
        status: res.status,
        statusText: res.statusText,
        headers: out,
      });
    }
  }

  const api = createClient<paths>({ baseUrl, fetch: send });

  async function* assetPages(query: ListQuery = {}): AsyncGenerator<ListBody> {
    let cursor: string | null = null;
    do {
      const result = await api.GET('/v1/registry/assets', {
        params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
      });
      // A JSON page (the list's CSV and NDJSON forms are asked for with bulk()).
      const page = result.data as ListBody | undefined;
      if (!page || typeof page !== 'object')
        throw new ApiError(result.response.status, (result.error ?? {}) as ApiError['problem']);
      yield page;
      cursor = page.meta.next_cursor;
    } while (cursor);
  }

  async function bulk<P extends DatasetPath>(
    path: P,
    format: BulkFormat,
    query?: BulkQuery<P>,
  ): Promise<string> {
    const search = new URLSearchParams(
      Object.entries(query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const res = await send(
      new Request(`${baseUrl}${path}${search ? `?${search}` : ''}`, {
        headers: { Accept: ACCEPT[format] },
      }),
    );
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, JSON.parse(text) as ApiError['problem']);
    return text;
  }

  return { api, rateLimit: () => lastRateLimit, assetPages, bulk };
}
