// Answer step: from memory (a remembered target, the status snapshot, a dataset view, a lookup,
// a site file, the operational endpoints) or Astro's handler. Returns a promise only when the
// answer waits on something (the status snapshot, /metrics, Astro).
import type { RequestContext } from './context.ts';
import { negotiateFormat, sendPrecomputed, sendPreparedProblem } from '../respond.ts';
import { DATA_CACHE } from '../answers/cache-control.ts';
import { STATUS_PATH } from '../answers/status.ts';
import { LOOKUP_PATH } from '../answers/lookup.ts';

export interface Answers {
  /** FAST_PATH=on: lookups and status answered from memory (off: by Astro). */
  fastPath: boolean;
  operational: (ctx: RequestContext) => Promise<void>;
  status: (ctx: RequestContext) => Promise<void>;
  /** False when the path is not a dataset view. */
  dataset: (ctx: RequestContext) => boolean;
  lookup: (ctx: RequestContext) => void;
  astro: (ctx: RequestContext) => Promise<void>;
}

export function answer(ctx: RequestContext, answers: Answers): void | Promise<void> {
  const { req, res, hot } = ctx;
  if (hot?.body) {
    // An unfiltered dataset view: JSON, or the CSV / NDJSON body Accept asks for.
    const format = hot.alternates ? negotiateFormat(req.headers.accept) : 'json';
    const body = format === 'json' ? hot.body : hot.alternates![format];
    const vary = hot.vary;
    return sendPrecomputed(req, res, ctx, body, {
      cacheControl: hot.cacheControl ?? DATA_CACHE,
      ...(vary ? { vary } : {}),
    });
  }
  if (hot?.problem) return sendPreparedProblem(req, res, ctx, hot.problem);
  if (ctx.staticFile)
    return sendPrecomputed(req, res, ctx, ctx.staticFile.body, {
      cacheControl: ctx.staticFile.cacheControl,
    });
  if (ctx.route === 'ops') return answers.operational(ctx);
  const path = ctx.path;
  if (path === STATUS_PATH && answers.fastPath) return answers.status(ctx);
  if (answers.dataset(ctx)) return;
  if (path === LOOKUP_PATH && answers.fastPath) return answers.lookup(ctx);
  return answers.astro(ctx);
}
