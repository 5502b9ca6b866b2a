// Answer step: from memory (a remembered target, a site file, the operational endpoints, the
// operation's answer) or, with FAST_PATH=off, Astro's handler for every operation. Returns a
// promise only when the answer waits on something (the status snapshot, /metrics, Astro).
import type { RequestContext } from './context.ts';
import {
  sendParamProblem,
  sendPrecomputed,
  sendPreparedProblem,
} from '../../representation/respond.ts';
import { acceptable, negotiateFormat, notAcceptable } from '../../api/negotiate.ts';
import { DATA_CACHE } from '../../api/answers.ts';

export interface Answers {
  /** FAST_PATH=on: the five operations answered from memory (off: by Astro). */
  fastPath: boolean;
  operational: (ctx: RequestContext) => Promise<void>;
  operation: (ctx: RequestContext) => void | Promise<void>;
  astro: (ctx: RequestContext) => Promise<void>;
}

export function answer(ctx: RequestContext, answers: Answers): void | Promise<void> {
  const { req, res, hot } = ctx;
  if (hot?.body) {
    // A remembered answer is fixed for its target, not for every Accept (406, as the answers say).
    if (hot.accepts && !acceptable(req.headers.accept, hot.accepts))
      return sendParamProblem(req, res, ctx, notAcceptable(req.headers.accept!, hot.accepts));
    // An unfiltered dataset view: JSON, or the CSV / NDJSON body Accept asks for.
    const format = hot.alternates ? negotiateFormat(req.headers.accept) : 'json';
    const body = format === 'json' ? hot.body : hot.alternates![format];
    const vary = hot.vary;
    const cacheControl = hot.cacheControl ?? DATA_CACHE;
    return sendPrecomputed(req, res, ctx, body, vary ? { cacheControl, vary } : { cacheControl });
  }
  if (hot?.problem) return sendPreparedProblem(req, res, ctx, hot.problem);
  if (ctx.staticFile)
    return sendPrecomputed(req, res, ctx, ctx.staticFile.body, {
      cacheControl: ctx.staticFile.cacheControl,
    });
  if (ctx.route === 'ops') return answers.operational(ctx);
  return answers.fastPath ? answers.operation(ctx) : answers.astro(ctx);
}
