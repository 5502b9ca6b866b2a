// Target step: a remembered target (memo.ts) is taken as decided; otherwise the target is
// length-checked (414) and decoded once (request-target.ts: 400 with the reason).
import { parseTarget } from '../request-target.ts';
import type { RequestContext } from './context.ts';
import type { Memo } from './memo.ts';
import { refuse } from './refuse.ts';

export interface TargetDeps {
  maxUrlBytes: number;
  memo: Memo;
}

/** True when the request was answered (refused) here. */
export function target(ctx: RequestContext, deps: TargetDeps): boolean {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') {
    const hot = deps.memo.get(ctx.url);
    if (hot) {
      ctx.hot = hot;
      ctx.path = ctx.loggedPath = hot.path;
      return false;
    }
  }
  if (Buffer.byteLength(ctx.url) > deps.maxUrlBytes)
    return refuse(ctx, 'target_too_long', { limit: deps.maxUrlBytes });
  const parsed = parseTarget(ctx.url);
  if (!parsed.ok) return refuse(ctx, 'target_refused', { reason: parsed.reason });
  ctx.path = ctx.loggedPath = parsed.path;
  ctx.search = parsed.search;
  return false;
}
