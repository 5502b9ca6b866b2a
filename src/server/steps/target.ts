// Target step: a remembered target (memo.ts) is taken as decided; otherwise the target is
// length-checked (414) and decoded once (request-target.ts: 400 with the reason).
import { holdsKey, redactKeys } from '../../access/keys.ts';
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
  // A key anywhere in the target (path or query, raw or percent-encoded) is refused before any
  // answer could repeat it, and logged only redacted.
  if (holdsKey(ctx.url)) return keyInTarget(ctx, ctx.url);
  const parsed = parseTarget(ctx.url);
  if (!parsed.ok) return refuse(ctx, 'target_refused', { reason: parsed.reason });
  if (holdsKey(parsed.path) || (parsed.search.includes('%') && holdsKey(decoded(parsed.search))))
    return keyInTarget(ctx, `${parsed.path}${parsed.search}`);
  ctx.path = ctx.loggedPath = parsed.path;
  ctx.search = parsed.search;
  return false;
}

function decoded(search: string): string {
  try {
    return decodeURIComponent(search);
  } catch {
    return search;
  }
}

function keyInTarget(ctx: RequestContext, target: string): true {
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  ctx.loggedPath = redactKeys(path);
  return refuse(ctx, 'key_in_target', { where: holdsKey(path) ? 'path' : 'query' });
}
