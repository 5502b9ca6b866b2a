// How an Answer (src/api/answers.ts) becomes a response: the coding negotiated from
// Accept-Encoding, a strong ETag per coding ("<tag>", "<tag>-gz", "<tag>-br"), 304 on
// If-None-Match, no body for HEAD, problems as application/problem+json. One place for the
// server and the Astro endpoints; the rules are those of src/server/respond.ts and
// src/server/precomputed.ts (same settings, same bytes).
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import Negotiator from 'negotiator';
import { matchesTag as notModified, precompute } from '../server/precomputed.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody } from '../domain/errors.ts';
import type { Answer, Coding, ComputedBody, PreparedBody } from '../api/answers.ts';
import { instanceFor } from './problem-response.ts';
import type { ResponseSigner } from './response-signer.ts';

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

/** What a request says about the representation it wants. */
export interface RepresentationRequest {
  method: string;
  acceptEncoding?: string | null | undefined;
  ifNoneMatch?: string | null | undefined;
}

/** The status, the headers (name/value pairs) and the body of a representation. */
export interface Representation {
  status: number;
  headers: string[];
  /** Absent for 304 and HEAD. */
  body?: Buffer | { file: string };
}

/** A body answer as status, headers and bytes (the server's sendPrecomputed, as data). */
export function represent(
  prepared: PreparedBody,
  options: { cacheControl: string; vary: string; live?: boolean },
  request: RepresentationRequest,
  signer?: ResponseSigner,
): Representation {
  const coding = negotiateCoding(request.acceptEncoding, prepared.codings) ?? 'identity';
  const headers = ['Vary', options.vary, 'Cache-Control', options.cacheControl];
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

/** A problem as the server writes it (never cached), `instance` naming the request. */
export function problemRepresentation(
  answer: Extract<Answer, { ok: false }>,
  requestId: string | undefined,
  method: string,
  signer?: ResponseSigner,
): Representation {
  const { code, detail, extensions } = answer.problem;
  const bytes = Buffer.from(
    JSON.stringify(problemBody(code, detail, instanceFor(requestId), extensions)),
  );
  const status = PROBLEMS[code].status;
  const headers = ['Cache-Control', 'no-store', 'Content-Type', PROBLEM_CONTENT_TYPE];
  headers.push('Content-Length', String(bytes.length));
  if (signer) headers.push(...signer.oneOffHeaders(status, PROBLEM_CONTENT_TYPE, bytes));
  return {
    status,
    headers,
    ...(method === 'HEAD' ? {} : { body: bytes }),
  };
}

export function representAnswer(
  answer: Answer,
  request: RepresentationRequest,
  requestId: string | undefined,
  signer?: ResponseSigner,
  live = false,
): Representation {
  if (!answer.ok) return problemRepresentation(answer, requestId, request.method, signer);
  return represent(preparedOf(answer.body), { ...answer, live }, request, signer);
}

/** The same as a web Response (for Astro's endpoints, written by @astrojs/node). */
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
  const headers = new Headers();
  for (let i = 0; i < r.headers.length; i += 2) headers.append(r.headers[i]!, r.headers[i + 1]!);
  const body =
    r.body === undefined
      ? null
      : Buffer.isBuffer(r.body)
        ? new Uint8Array(r.body.buffer as ArrayBuffer, r.body.byteOffset, r.body.length)
        : (Readable.toWeb(createReadStream(r.body.file)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: r.status, headers });
}
