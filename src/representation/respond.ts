// The server's writer (node:http), the one module that writes a status line: the decisions of
// representation.ts (status, header fields, body) written to a ServerResponse. A prepared body's
// 200 and 304 take the fast path (a header block prepared once per body × coding, joined with the
// per-request lines); anything else writes the decision `represent` or `representUncached` made
// (`writeDecision`). A response whose decisions are folded into another answer (the edge's
// authorization answer, src/server/edge-auth.ts) hands each decision to its fold and writes what
// the fold returns. test/unit/respond-blocks.test.ts pins the two paths to the same bytes,
// test/integration/fast-path-parity.test.ts this writer to Astro's, and
// test/unit/one-writer.test.ts that no other module in src/ calls writeHead.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, type ProblemCode } from '../domain/errors.ts';
import type { ParamProblem } from '../api/params.ts';
import { notModified, type Coding, type Precomputed } from './precomputed.ts';
import {
  negotiateCoding,
  problemHalves,
  problemJson,
  represent,
  representUncached,
  type BodyOptions,
  type Representation,
} from './representation.ts';
import { noteProblem } from './problem-note.ts';
import type { ResponseSigner } from './response-signer.ts';

export type SendOptions = BodyOptions;

/**
 * What the pipeline decided about a response before its body: the request id and the headers
 * every answer carries (security, CORS, rate limit), as name/value pairs. They are written with
 * the status line in one `writeHead` call: per-header `setHeader` calls (validation, a map entry
 * each) were a tenth of the hot path's CPU.
 */
export interface ProblemContext {
  requestId: string;
  headers: string[];
  /**
   * The response takes the ordinary writeHead path (no prepared header block): set when Node must
   * see one of `headers` (Connection: close) or when they were also given to `setHeader`.
   */
  ordinary?: boolean;
  /** Set for /v1 answers when a signing key is configured (response-signer.ts). */
  signer?: ResponseSigner | undefined;
}

/**
 * Turns the decision for a request into the one written instead, and names the status the
 * request is recorded with (metering, metrics and the access log read `res.statusCode`).
 */
export type Fold = (decision: Representation) => { written: Representation; status: number };
const folds = new WeakMap<ServerResponse, Fold>();

/** The decision written to `res` goes through `fold` first (once: the fold is then dropped). */
export function foldDecision(res: ServerResponse, fold: Fold): void {
  folds.set(res, fold);
}

/** True when the decision written to `res` will be folded (it is then made from memory). */
export const isFolded = (res: ServerResponse): boolean => folds.has(res);

/**
 * Writes a decision whole (its header fields complete: the context's included): the status line
 * and fields in one writeHead, then the body (a built file streamed, with backpressure).
 */
export function writeDecision(res: ServerResponse, decision: Representation): void {
  const fold = folds.get(res);
  let r = decision;
  if (fold) {
    folds.delete(res);
    const folded = fold(decision);
    r = folded.written;
    res.writeHead(r.status, r.headers);
    res.statusCode = folded.status;
  } else res.writeHead(r.status, r.headers);
  if (r.body === undefined) res.end();
  else if (typeof r.body === 'string' || Buffer.isBuffer(r.body)) res.end(r.body);
  else pipeline(createReadStream(r.body.file), res, (err) => err && res.destroy());
}

/** A decision after the context's header fields, through the ordinary writeHead path. */
function write(res: ServerResponse, ctx: ProblemContext, r: Representation): void {
  const headers = ctx.headers.length === 0 ? r.headers : ctx.headers.concat(r.headers);
  writeDecision(res, headers === r.headers ? r : { ...r, headers });
}

// Prepared header blocks (#16 item 5). Node validates and inspects every
// header given to writeHead (a token test, a value test and a lower-cased match each); ours are
// fixed strings made here or values we generate (request ids, quota counts), so the fast path
// gives Node only Content-Length (which it must see for framing), lets it write the status line,
// Date and the keep-alive fields as always, and then splices the prepared lines into the header
// it stored (`res._header`, written with the first body bytes by `_send`). A response that Node
// must inspect further (a Connection field of ours) or whose decision is folded takes the
// ordinary path. test/unit/respond-blocks.test.ts pins the bytes against the ordinary path.
interface NodeHeaderState {
  _header: string | null;
}

/** Name/value pairs as header lines. */
function linesOf(h: readonly string[]): string {
  let lines = '';
  for (let i = 0; i < h.length; i += 2) lines += h[i] + ': ' + h[i + 1] + '\r\n';
  return lines;
}

/**
 * Writes status, the context's headers, `before` (prepared lines), Content-Length when `length`
 * is given, then `after` (prepared lines), then Node's own fields; false (nothing written) when
 * the response must take the ordinary path.
 */
function writeBlock(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  status: number,
  before: string,
  length: number | undefined,
  after: string,
  body: Buffer | string | undefined,
): boolean {
  if (ctx.ordinary || folds.has(res)) return false;
  const lengthValue = length === undefined ? undefined : String(length);
  if (lengthValue === undefined) res.writeHead(status);
  else res.writeHead(status, ['Content-Length', lengthValue]);
  const state = res as unknown as NodeHeaderState;
  const stored = state._header;
  if (typeof stored !== 'string') throw new Error('node:http stored no header (res._header)');
  const lineEnd = stored.indexOf('\r\n') + 2;
  const lengthLine = lengthValue === undefined ? '' : 'Content-Length: ' + lengthValue + '\r\n';
  state._header =
    stored.slice(0, lineEnd) +
    linesOf(ctx.headers) +
    before +
    lengthLine +
    after +
    stored.slice(lineEnd + lengthLine.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** The prepared lines of one body in one coding (made on its first answer). */
interface Block {
  /** `ETag: …` */
  etag: string;
  /** `Content-Type: …` */
  type: string;
  /** `Content-Encoding: …` or '' */
  encoding: string;
  /** The body in this coding, taken on the first 200 (a 304 needs no bytes). */
  bytes?: Buffer;
  /** The lines after Content-Length when signed: the encoding and the signature fields. */
  signed?: { signer: ResponseSigner; after: string };
}
const blocks = new WeakMap<Precomputed, Partial<Record<Coding, Block>>>();

function blockFor(body: Precomputed, coding: Coding): Block {
  let byCoding = blocks.get(body);
  if (!byCoding) blocks.set(body, (byCoding = {}));
  return (byCoding[coding] ??= {
    etag: checkedLine('ETag', body.etagFor(coding)),
    type: checkedLine('Content-Type', body.contentType),
    encoding: coding === 'identity' ? '' : checkedLine('Content-Encoding', coding),
  });
}

/**
 * `Vary` and `Cache-Control` lines: a handful of fixed strings, found by the two values (no key
 * string is built per request).
 */
const cachingLines = new Map<string, Map<string, string>>();
let cachingEntries = 0;
function cachingLinesFor(vary: string, cacheControl: string): string {
  let byVary = cachingLines.get(cacheControl);
  let lines = byVary?.get(vary);
  if (lines === undefined) {
    lines = checkedLine('Vary', vary) + checkedLine('Cache-Control', cacheControl);
    if (cachingEntries < 64) {
      if (byVary === undefined) cachingLines.set(cacheControl, (byVary = new Map()));
      byVary.set(vary, lines);
      cachingEntries++;
    }
  }
  return lines;
}

const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A header line, validated once when it is prepared (as Node would on every response). */
function checkedLine(name: string, value: string): string {
  if (!FIELD_NAME.test(name) || !FIELD_VALUE.test(value))
    throw new Error(`invalid header field ${name}: ${JSON.stringify(value)}`);
  return name + ': ' + value + '\r\n';
}

/** The encoding and signature lines of a 200, made once per body, coding and signer. */
function signedAfter(
  block: Block,
  signer: ResponseSigner,
  body: Precomputed,
  coding: Coding,
  options: SendOptions,
): string {
  if (block.signed?.signer === signer) return block.signed.after;
  const after = block.encoding + signer.bodyLines(body, coding, 200, options.live);
  block.signed = { signer, after };
  return after;
}

export function sendPrecomputed(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  body: Precomputed,
  options: SendOptions,
): void {
  if (!body.fileFor) {
    const coding = negotiateCoding(req.headers['accept-encoding'], body.codings) ?? 'identity';
    const block = blockFor(body, coding);
    const caching = cachingLinesFor(options.vary ?? 'Accept-Encoding', options.cacheControl);
    const head = caching + block.etag;
    if (notModified(req.headers['if-none-match'], body)) {
      if (writeBlock(req, res, ctx, 304, head, undefined, '', undefined)) return;
    } else {
      const bytes = (block.bytes ??= body.bodyFor(coding));
      const after = ctx.signer
        ? signedAfter(block, ctx.signer, body, coding, options)
        : block.encoding;
      if (writeBlock(req, res, ctx, 200, head + block.type, bytes.length, after, bytes)) return;
    }
  }
  const request = {
    method: req.method ?? 'GET',
    acceptEncoding: req.headers['accept-encoding'],
    ifNoneMatch: req.headers['if-none-match'],
  };
  write(res, ctx, represent(body, options, request, ctx.signer));
}

/**
 * Field names node:http acts on when given to writeHead (framing, its own Date and keep-alive):
 * a response with one of them takes the ordinary path. Tested on names at even positions only.
 */
const NODE_READS =
  /^(?:connection|content-length|transfer-encoding|date|trailer|expect|keep-alive)$/i;
const nodeReads = (field: string, i: number) => i % 2 === 0 && NODE_READS.test(field);

/** Name/value pairs as header lines, each validated as Node validates writeHead's fields. */
function checkedLines(head: readonly string[]): string {
  let lines = '';
  for (let i = 0; i < head.length; i += 2) lines += checkedLine(head[i]!, head[i + 1]!);
  return lines;
}

const uncachedLines = new Map<string, string>();
function uncachedLinesFor(contentType: string): string {
  const lines = checkedLine('Cache-Control', 'no-store') + checkedLine('Content-Type', contentType);
  if (uncachedLines.size < 16) uncachedLines.set(contentType, lines);
  return lines;
}

/** A body made for this request, never cached: problems and the operational endpoints. */
export function sendUncached(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  status: number,
  contentType: string,
  body: string,
  head: readonly string[] = [],
): void {
  if (!ctx.ordinary && !folds.has(res) && !head.some(nodeReads)) {
    // A body made for this response (a problem naming its request): signed here, each time.
    // Its own fields (a refusal's WWW-Authenticate, Retry-After, Location) come first, checked
    // as Node would check them.
    const signed = ctx.signer?.oneOffHeaders(status, contentType, body);
    const before =
      checkedLines(head) + (uncachedLines.get(contentType) ?? uncachedLinesFor(contentType));
    const after = signed ? linesOf(signed) : '';
    if (writeBlock(req, res, ctx, status, before, Buffer.byteLength(body), after, body)) return;
  }
  const method = req.method ?? 'GET';
  write(res, ctx, representUncached(status, contentType, body, method, ctx.signer, head));
}

export function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  code: ProblemCode,
  detail: string,
  extensions: Record<string, unknown> = {},
  head: readonly string[] = [],
): void {
  const body = problemJson(code, detail, ctx.requestId, extensions);
  const status = PROBLEMS[code].status;
  noteProblem(res, code);
  sendUncached(req, res, ctx, status, PROBLEM_CONTENT_TYPE, body, head);
}

/** The problem a parameter check or a view produced. */
export function sendParamProblem(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  problem: ParamProblem,
): void {
  sendProblem(req, res, ctx, problem.code, problem.detail, problem.extensions);
}

/**
 * A problem answer prepared once for a request target that always gets it (an unknown TFIN, a
 * malformed one): the body split around its `instance`, which names each request.
 */
export interface PreparedProblem {
  status: number;
  code: ProblemCode;
  before: string;
  after: string;
}

export function prepareProblem(problem: ParamProblem): PreparedProblem {
  const [before, after] = problemHalves(problem.code, problem.detail, problem.extensions);
  return { status: PROBLEMS[problem.code].status, code: problem.code, before, after };
}

export function sendPreparedProblem(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  problem: PreparedProblem,
): void {
  const body = problem.before + ctx.requestId + problem.after;
  noteProblem(res, problem.code);
  sendUncached(req, res, ctx, problem.status, PROBLEM_CONTENT_TYPE, body);
}
