// Writing responses: negotiated codings of precomputed bodies, conditional requests, HEAD,
// and problem details. Every response of ours goes through here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody, type ProblemCode } from '../domain/errors.ts';
import { instanceFor } from '../http/problem-response.ts';
import type { ParamProblem } from '../dataset/params.ts';
import { notModified, type Coding, type Precomputed } from './precomputed.ts';

const CODINGS: readonly Coding[] = ['br', 'gzip', 'identity'];
const codingCache = new Map<string, Coding | null>();

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
  acceptEncoding: string | undefined,
  available: readonly Coding[] = CODINGS,
): Coding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity';
  const key = available.length === 3 ? acceptEncoding : `${available.join(',')}|${acceptEncoding}`;
  const cached = codingCache.get(key);
  if (cached !== undefined) return cached;
  const negotiator = new Negotiator({
    headers: { 'accept-encoding': acceptEncoding },
  }) as unknown as EncodingNegotiator;
  const chosen =
    (negotiator.encoding(available, { preferred: CODINGS }) as Coding | undefined) ?? null;
  // The header space is small in practice; bound the cache so hostile headers cannot grow it.
  if (codingCache.size < 512) codingCache.set(key, chosen);
  return chosen;
}

export interface SendOptions {
  status?: number;
  cacheControl: string;
}

export function sendPrecomputed(
  req: IncomingMessage,
  res: ServerResponse,
  body: Precomputed,
  options: SendOptions,
): void {
  const coding = negotiateCoding(req.headers['accept-encoding'], body.codings) ?? 'identity';
  const status = options.status ?? 200;
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', options.cacheControl);
  if (status === 200) {
    res.setHeader('ETag', body.etagFor(coding));
    if (notModified(req.headers['if-none-match'], body)) {
      res.writeHead(304);
      res.end();
      return;
    }
  }
  const bytes = body.bodyFor(coding);
  res.setHeader('Content-Type', body.contentType);
  res.setHeader('Content-Length', bytes.length);
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.writeHead(status);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export interface ProblemContext {
  requestId: string;
}

export function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ProblemContext,
  code: ProblemCode,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(problemBody(code, detail, instanceFor(ctx.requestId), extensions));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.writeHead(PROBLEMS[code].status);
  res.end(req.method === 'HEAD' ? undefined : body);
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
