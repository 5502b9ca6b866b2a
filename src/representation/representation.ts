// How an answer (src/api/answers.ts) becomes a representation: the coding negotiated from
// Accept-Encoding, a strong ETag per coding ("<tag>", "<tag>-gz", "<tag>-br"), 304 on
// If-None-Match, no body for HEAD, problems as application/problem+json naming the request,
// and the signature fields (response-signer.ts). The one set of rules for both writers: the
// server's (respond.ts, which also keeps a prepared header block per body × coding for its fast
// path) and Astro's endpoints (`answerResponse`, a web Response, src/http/astro-endpoint.ts).
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import Negotiator from 'negotiator';
import { matchesTag as notModified, precompute } from './precomputed.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody, type ProblemCode } from '../domain/errors.ts';
import type { Answer, Coding, ComputedBody, PreparedBody } from '../api/answers.ts';
import { releaseHeaders, type ResponseSigner } from './response-signer.ts';

const CODINGS: readonly Coding[] = ['br', 'gzip', 'identity'];
const codingCache = new BoundedMap<string, Coding | null>(512);

/** negotiator 1.1 takes a `preferred` order for ties; @types/negotiator does not know it yet. */
interface EncodingNegotiator {
  encoding(
    available: readonly string[],
    options: { preferred: readonly string[] },
  ): string | undefined;
}

/**
 * The coding to send among those `available`: the client's highest q-value, ties broken by our
 * preference (br, gzip, identity); null when none is acceptable.
 */
export function negotiateCoding(
  acceptEncoding: string | null | undefined,
  available: readonly Coding[] = CODINGS,
): Coding | null {
  if (acceptEncoding === undefined || acceptEncoding === null || acceptEncoding === '')
    return 'identity';
  const key = available.length === 3 ? acceptEncoding : `${available.join(',')}|${acceptEncoding}`;
  const cached = codingCache.get(key);
  if (cached !== undefined) return cached;
  const negotiator = new Negotiator({
    headers: { 'accept-encoding': acceptEncoding },
  }) as unknown as EncodingNegotiator;
  const chosen =
    (negotiator.encoding(available, { preferred: CODINGS }) as Coding | undefined) ?? null;
  codingCache.set(key, chosen);
  return chosen;
}

/** A body made for one request: tagged by its content, compressed lazily (fast settings). */
export const computedBody = (body: ComputedBody): PreparedBody =>
  precompute(body.text, body.contentType, { effort: 'fast', eager: false });

export function preparedOf(body: PreparedBody | ComputedBody): PreparedBody {
  return 'text' in body ? computedBody(body) : body;
}

/** A problem's `instance`: the request it answers (a fresh id when there is none). */
export function instanceFor(requestId: string | undefined): string {
  return `urn:uuid:${requestId ?? randomUUID()}`;
}

/**
 * Problem bodies without extensions, split around their `instance`, per code and detail: a
 * refusal repeated under a flood is joined from two strings, not serialised again. Bounded
 * (details carry at most a count of seconds).
 */
const keptHalves = new BoundedMap<string, readonly [string, string]>(512);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A problem body (RFC 9457) naming the request in `instance`. */
export function problemJson(
  code: ProblemCode,
  detail: string,
  requestId: string | undefined,
  extensions: Record<string, unknown> = {},
): string {
  // Only a request id that needs no escaping is joined in as it is.
  for (const _ in extensions) return serialised(code, detail, requestId, extensions);
  if (requestId === undefined || !UUID.test(requestId))
    return serialised(code, detail, requestId, extensions);
  const key = `${code}\n${detail}`;
  let halves = keptHalves.get(key);
  if (halves === undefined) keptHalves.set(key, (halves = problemHalves(code, detail)));
  return halves[0] + requestId + halves[1];
}

/** A problem body split around its `instance`: a request id goes between the two halves. */
export function problemHalves(
  code: ProblemCode,
  detail: string,
  extensions: Record<string, unknown> = {},
): readonly [string, string] {
  const marker = randomUUID();
  const json = serialised(code, detail, marker, extensions);
  const at = json.indexOf(marker);
  return [json.slice(0, at), json.slice(at + marker.length)];
}

function serialised(
  code: ProblemCode,
  detail: string,
  requestId: string | undefined,
  extensions: Record<string, unknown>,
): string {
  return JSON.stringify(problemBody(code, detail, instanceFor(requestId), extensions));
}

/** What a request says about the representation it wants. */
export interface RepresentationRequest {
  method: string;
  acceptEncoding?: string | null | undefined;
  ifNoneMatch?: string | null | undefined;
}

/** How a body answer may be cached, and whether it is of this moment (the live status). */
export interface BodyOptions {
  cacheControl: string;
  /** The Vary header (default Accept-Encoding). */
  vary?: string;
  /** A body of this moment (the status snapshot): its signature is dated when made. */
  live?: boolean;
}

/** The status, the headers (name/value pairs) and the body of a representation. */
export interface Representation {
  status: number;
  headers: string[];
  /** Absent for 304 and HEAD. */
  body?: Buffer | string | { file: string };
}

/** A prepared body as status, headers and bytes (200, or 304 on a matching If-None-Match). */
export function represent(
  prepared: PreparedBody,
  options: BodyOptions,
  request: RepresentationRequest,
  signer?: ResponseSigner,
): Representation {
  const coding = negotiateCoding(request.acceptEncoding, prepared.codings) ?? 'identity';
  const headers = [
    'Vary',
    options.vary ?? 'Accept-Encoding',
    'Cache-Control',
    options.cacheControl,
  ];
  headers.push('ETag', prepared.etagFor(coding));
  if (notModified(request.ifNoneMatch, prepared.tag)) return { status: 304, headers };
  const file = prepared.fileFor?.(coding);
  const size = file ? file.size : prepared.bodyFor(coding).length;
  headers.push('Content-Type', prepared.contentType, 'Content-Length', String(size));
  if (coding !== 'identity') headers.push('Content-Encoding', coding);
  if (signer) headers.push(...signer.bodyHeaders(prepared, coding, 200, options.live));
  if (request.method === 'HEAD') return { status: 200, headers };
  return { status: 200, headers, body: file ? { file: file.path } : prepared.bodyFor(coding) };
}

/**
 * A body made for this response, never cached (a problem, an operational endpoint), signed as
 * made; `head` are fields of its own before the caching ones.
 */
export function representUncached(
  status: number,
  contentType: string,
  body: string | Buffer,
  method: string,
  signer?: ResponseSigner,
  head: readonly string[] = [],
): Representation {
  const headers = head.concat('Cache-Control', 'no-store', 'Content-Type', contentType);
  headers.push('Content-Length', String(Buffer.byteLength(body)));
  if (signer) headers.push(...signer.oneOffHeaders(status, contentType, body));
  return method === 'HEAD' ? { status, headers } : { status, headers, body };
}

/** A problem as both writers send it (never cached), `instance` naming the request. */
export function problemRepresentation(
  problem: { code: ProblemCode; detail: string; extensions?: Record<string, unknown> },
  requestId: string | undefined,
  method: string,
  signer?: ResponseSigner,
): Representation {
  const body = problemJson(problem.code, problem.detail, requestId, problem.extensions);
  const status = PROBLEMS[problem.code].status;
  return representUncached(status, PROBLEM_CONTENT_TYPE, body, method, signer);
}

export function representAnswer(
  answer: Answer,
  request: RepresentationRequest,
  requestId: string | undefined,
  signer?: ResponseSigner,
  live = false,
): Representation {
  if (!answer.ok) return problemRepresentation(answer.problem, requestId, request.method, signer);
  if (!answer.release)
    return represent(preparedOf(answer.body), { ...answer, live }, request, signer);
  // From an older release: named by its own version, generation time and digest, signed so.
  const r = represent(
    preparedOf(answer.body),
    { ...answer, live },
    request,
    signer?.forRelease(answer.release),
  );
  return { ...r, headers: [...releaseHeaders(answer.release), ...r.headers] };
}

/** A representation as a web Response (for Astro's endpoints, written by @astrojs/node). */
export function webResponse(r: Representation): Response {
  const headers = new Headers();
  for (let i = 0; i < r.headers.length; i += 2) headers.append(r.headers[i]!, r.headers[i + 1]!);
  const body =
    r.body === undefined || typeof r.body === 'string'
      ? (r.body ?? null)
      : Buffer.isBuffer(r.body)
        ? new Uint8Array(r.body.buffer as ArrayBuffer, r.body.byteOffset, r.body.length)
        : (Readable.toWeb(createReadStream(r.body.file)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: r.status, headers });
}

/** An answer to a web Request as a web Response. */
export function answerResponse(
  answer: Answer,
  request: Request,
  requestId?: string,
  signer?: ResponseSigner,
  /** The answer is the live status (signed as made, not as fixed for the release). */
  live = false,
): Response {
  const r = representAnswer(
    answer,
    {
      method: request.method,
      acceptEncoding: request.headers.get('accept-encoding'),
      ifNoneMatch: request.headers.get('if-none-match'),
    },
    requestId,
    signer,
    live,
  );
  return webResponse(r);
}
