// The five operations from memory: the operation's answer (src/api/answers.ts, the same function
// Astro's endpoints call) sent as the prebuilt bytes or a body computed for the request. What
// the server adds is only caching, never content: a fixed answer is remembered with its target
// (steps/memo.ts), a computed view is kept per target and format (bounded LRU, checked before
// the answer is computed), the status body once per snapshot.
import {
  ANSWERS,
  type Answer,
  type AnswerState,
  type ComputedBody,
  type PreparedBody,
} from '../../api/answers.ts';
import { BULK_FORMATS, type BulkFormat } from '../../api/bulk.ts';
import { negotiateFormat } from '../../api/negotiate.ts';
import { operationAt, type OperationPath } from '../../api/operations.ts';
import { LRUCache } from 'lru-cache';
import type { Precomputed } from '../../representation/precomputed.ts';
import { computedBody } from '../../representation/representation.ts';
import {
  prepareProblem,
  sendParamProblem,
  sendPrecomputed,
  sendPreparedProblem,
  type SendOptions,
} from '../../representation/respond.ts';
import type { RequestContext } from '../steps/context.ts';
import type { ReleaseFacts } from '../../api/releases.ts';
import { DATASET_VERSION_HEADER, releaseHeaders } from '../../representation/response-signer.ts';
import type { Memo } from '../steps/memo.ts';
import type { FairTurns } from '../fair-turns.ts';

/** Computed views kept in memory, least recently used first out. */
const VIEW_CACHE_ENTRIES = 256;
/** Computed views longer than this (bytes) are sent, not kept (large CSV / NDJSON selections). */
const MAX_CACHED_VIEW_BYTES = 2_000_000;

interface Kept {
  body: Precomputed;
  options: SendOptions;
  release?: ReleaseFacts | undefined;
}

/**
 * An answer from an older release names that release: its Dataset-Version (in place of the
 * current one the headers step set), generation time and digest, and is signed so.
 */
function nameRelease(ctx: RequestContext, release: ReleaseFacts | undefined): void {
  if (!release) return;
  const h = ctx.headers;
  for (let i = 0; i < h.length; i += 2)
    if (h[i] === DATASET_VERSION_HEADER) {
      h.splice(i, 2);
      break;
    }
  h.push(...releaseHeaders(release));
  if (ctx.signer) ctx.signer = ctx.signer.forRelease(release);
}

const unfiltered = (search: string) => search === '' || search === '?';

/** Whose turn a computed answer waits for: the key, or the address of a demo caller. */
const callerOf = (ctx: RequestContext) =>
  ctx.principal?.kind === 'key' ? `key:${ctx.principal.id}` : `address:${ctx.ip}`;

/**
 * `compute` on the caller's turn (fair-turns.ts); the promise settles once the answer is sent,
 * or at once when the client has gone while it waited (nothing is computed for it then).
 */
function onTurn(
  turns: FairTurns,
  ctx: RequestContext,
  compute: () => void | Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) =>
    turns.take(callerOf(ctx), () => {
      if (ctx.res.destroyed || ctx.req.socket.destroyed) return resolve();
      try {
        const sent = compute();
        if (sent) sent.then(resolve, reject);
        else resolve();
      } catch (err) {
        reject(err);
      }
    }),
  );
}

export function operationAnswer(state: AnswerState, memo: Memo, turns: FairTurns) {
  const views = new LRUCache<string, Kept>({ max: VIEW_CACHE_ENTRIES });
  let status: { text: string | Buffer; body: Precomputed } | null = null;

  /** The prebuilt CSV and NDJSON bodies of a dataset operation, chosen by Accept when remembered. */
  function alternatesOf(path: string): Record<BulkFormat, Precomputed> | undefined {
    const bodies = {} as Record<BulkFormat, Precomputed>;
    for (const format of BULK_FORMATS) {
      const body = state.prebuilt?.bulk(path, format);
      if (!body) return undefined;
      bodies[format] = body;
    }
    return bodies;
  }

  function bodyOf(ctx: RequestContext, body: PreparedBody | ComputedBody): Precomputed {
    if (!('text' in body)) return body;
    if (operationAt(ctx.path)?.kind !== 'status') return computedBody(body);
    // One body (hash, lazy compression) per status snapshot, not per request.
    if (status?.text !== body.text) status = { text: body.text, body: computedBody(body) };
    return status.body;
  }

  function send(ctx: RequestContext, answer: Answer, viewKey: string | null): void {
    const { req, res, path, search } = ctx;
    if (!answer.ok) {
      if (!answer.fixed) return sendParamProblem(req, res, ctx, answer.problem);
      const problem = prepareProblem(answer.problem);
      memo.set(ctx.url, { path, problem });
      return sendPreparedProblem(req, res, ctx, problem);
    }
    const body = bodyOf(ctx, answer.body);
    nameRelease(ctx, answer.release);
    const live = operationAt(path)?.kind === 'status';
    const options = { cacheControl: answer.cacheControl, vary: answer.vary, live };
    const accepts = answer.accepts ? { accepts: answer.accepts } : {};
    // An older release's answer is not remembered by target: the memo sends the current headers.
    if (answer.fixed && !answer.release) {
      // An unfiltered dataset is remembered as its JSON body with the CSV and NDJSON ones (the
      // representation depends on Accept); without all three it is not remembered.
      const whole = unfiltered(search) && operationAt(path)?.kind === 'dataset';
      const alternates = whole ? alternatesOf(path) : undefined;
      const json = alternates && state.prebuilt?.view(path);
      if (!whole) memo.set(ctx.url, { path, body, ...options, ...accepts });
      else if (json) memo.set(ctx.url, { path, body: json, alternates, ...options, ...accepts });
    } else if (viewKey && 'text' in answer.body) {
      if (body.bodyFor('identity').length <= MAX_CACHED_VIEW_BYTES)
        views.set(viewKey, { body, options, release: answer.release });
    }
    sendPrecomputed(req, res, ctx, body, options);
  }

  return function answerOperation(ctx: RequestContext): void | Promise<void> {
    const accept = ctx.req.headers.accept;
    // A computed dataset view already made for this target and format is sent again as it was.
    const viewKey =
      operationAt(ctx.path)?.kind === 'dataset' && !unfiltered(ctx.search)
        ? `${ctx.url}#${negotiateFormat(accept)}`
        : null;
    const kept = viewKey ? views.get(viewKey) : undefined;
    if (kept) {
      nameRelease(ctx, kept.release);
      return sendPrecomputed(ctx.req, ctx.res, ctx, kept.body, kept.options);
    }
    const compute = () => {
      const answer = ANSWERS[ctx.path as OperationPath]({ search: ctx.search, accept }, state);
      if (answer instanceof Promise) return answer.then((a) => send(ctx, a, viewKey));
      return send(ctx, answer, viewKey);
    };
    return takesTurn(ctx.path) ? onTurn(turns, ctx, compute) : compute();
  };
}

/**
 * Whether an answer computed for its request waits for its caller's turn: all but the live
 * status, which is one body per snapshot (made once, then sent from memory), as cheap as a
 * remembered answer. Waiting for a turn held it to one answer per turn of the event loop.
 */
export function takesTurn(path: string): boolean {
  return operationAt(path)?.kind !== 'status';
}
