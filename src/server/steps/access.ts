// Access step: no key in the query; the failed-auth block for addresses trying new keys; the
// key (authenticator.ts); the quota (quotas.ts) with RateLimit-Policy / RateLimit. Each check
// is synchronous when its answer is known in memory (a cached key, an in-memory quota): then the
// step returns a boolean and no promise is made; with a database or Redis round trip, a promise.
import type { Authenticator, AuthResult } from '../../access/authenticator.ts';
import {
  KEY_QUERY_PARAMS,
  conflictingKeys,
  presentedKey,
  repeatedKeyHeader,
} from '../../access/keys.ts';
import type { LimitDecision } from '../../access/rate-limit.ts';
import type { FailedAuthGate, QuotaLimiter } from '../../access/quota-backend.ts';
import { addressKey } from '../../lib/client-address.ts';
import type { RefusalLimit } from '../../access/refusal-limit.ts';
import type { RequestContext } from './context.ts';
import { refuse } from './refuse.ts';

export interface AccessDeps {
  auth: Pick<Authenticator, 'check' | 'knownGood'>;
  limits: QuotaLimiter;
  failedAuth: FailedAuthGate;
}

/**
 * The per-address refusal limit (refusal-limit.ts), checked before any other work: true when the
 * address is blocked and the request carries no key already known good (then answered 429).
 */
export function addressBlocked(
  ctx: RequestContext,
  deps: { auth: Pick<Authenticator, 'knownGood'>; refusals: Pick<RefusalLimit, 'blockedFor'> },
): boolean {
  const seconds = deps.refusals.blockedFor(addressKey(ctx.ip) ?? ctx.ip);
  if (seconds === null || deps.auth.knownGood(presentedKey(ctx.req.headers))) return false;
  return refuse(ctx, 'refusals_from_address', { seconds }, {}, ['Retry-After', String(seconds)]);
}

/** True (or a promise of true) when the request was refused here. */
export function access(ctx: RequestContext, deps: AccessDeps): boolean | Promise<boolean> {
  // A remembered target passed the query checks when it was first resolved.
  if (!ctx.hot && ctx.search !== '') {
    const query = new URLSearchParams(ctx.search);
    const found = KEY_QUERY_PARAMS.find((p) => query.has(p));
    if (found) return refuse(ctx, 'key_in_query', { found });
  }
  if (repeatedKeyHeader(ctx.req.headers)) return refuse(ctx, 'repeated_api_key', {});
  if (conflictingKeys(ctx.req.headers)) return refuse(ctx, 'conflicting_credentials', {});
  const presented = presentedKey(ctx.req.headers);
  // A key already known good (or DEMO_KEY) skips the failed-attempts check: the block exists to
  // stop an address from trying new keys, and this one is not new. "Known" does not depend on
  // the key cache answering synchronously (it expires every KEY_CACHE_MS).
  const known = deps.auth.knownGood(presented);
  // Limits count an address's /64 for IPv6 (one client holds a whole /64).
  const limitKey = addressKey(ctx.ip) ?? ctx.ip;
  const blocking = known ? null : deps.failedAuth.blocked(limitKey);
  if (blocking instanceof Promise)
    return blocking.then((b) => afterBlock(ctx, deps, b, presented, limitKey));
  return afterBlock(ctx, deps, blocking, presented, limitKey);
}

function afterBlock(
  ctx: RequestContext,
  deps: AccessDeps,
  blockedFor: number | null,
  presented: string | null,
  limitKey: string,
): boolean | Promise<boolean> {
  // A blocked address is refused before its key is looked up: a flood of new keys from one
  // address costs no database lookup once the block holds.
  if (blockedFor !== null)
    return refuse(ctx, 'failed_attempts', { seconds: blockedFor }, {}, [
      'Retry-After',
      String(blockedFor),
    ]);
  const quick = deps.auth.check(presented);
  if (quick instanceof Promise) return quick.then((auth) => afterAuth(ctx, deps, auth, limitKey));
  return afterAuth(ctx, deps, quick, limitKey);
}

function afterAuth(
  ctx: RequestContext,
  deps: AccessDeps,
  auth: AuthResult,
  limitKey: string,
): boolean | Promise<boolean> {
  if (!auth.ok) {
    switch (auth.failure) {
      case 'missing_api_key':
        return refuse(ctx, 'missing_api_key', {});
      case 'invalid_api_key':
        deps.failedAuth.fail(limitKey);
        return refuse(ctx, 'invalid_api_key', {});
      case 'demo_key_disabled':
        return refuse(ctx, 'demo_key_disabled', {});
      case 'service_unavailable':
        return refuse(ctx, 'key_unverifiable', {});
    }
  }
  ctx.principal = auth.principal;
  const limiting = deps.limits.consume(auth.principal, limitKey);
  if (limiting instanceof Promise) return limiting.then((limit) => afterLimit(ctx, limit));
  return afterLimit(ctx, limiting);
}

function afterLimit(ctx: RequestContext, limit: LimitDecision): boolean {
  const lh = limit.headers;
  ctx.headers.push('RateLimit-Policy', lh['RateLimit-Policy'], 'RateLimit', lh.RateLimit);
  if (lh['Retry-After']) ctx.headers.push('Retry-After', lh['Retry-After']);
  if (limit.allowed) return false;
  return refuse(ctx, 'quota_used_up', { policy: limit.policy, seconds: limit.resetSeconds });
}
