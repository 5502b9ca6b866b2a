// Quotas shared by every instance, counted in Redis in fixed windows that start with a subject's
// first request, as in memory. Tier quotas are spent from leases (`quota-lease.ts`): a decision
// costs a Redis round trip only when this instance's lease for the subject is spent. The
// failed-auth block (invalid keys only) is one rate-limiter-flexible command per attempt.
//
// When Redis is unreachable (refused, cut, or slower than REDIS_TIMEOUT_MS) the instance keeps
// answering: it spends the leases it holds (already counted in Redis), then switches to in-memory
// counters at REDIS_FALLBACK_SHARE of every quota (1/N for N instances keeps the total near one
// quota), stops sending commands, and pings Redis every second; the first answer switches back.
// Counts taken during the outage stay local.
import { Redis } from 'ioredis';
import { withDeadline, within } from '../lib/deadline.ts';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from './authenticator.ts';
import { FailedAuthLimiter, TierLimiter, type LimitDecision, type Quota } from './rate-limit.ts';
import { QuotaLeases, redisLeaseStore, type LeaseDecision } from './quota-lease.ts';
import {
  tierQuotas,
  type FailedAuthGate,
  type QuotaBackendHealth,
  type QuotaConfig,
  type QuotaCounters,
  type QuotaLimiter,
  type Quotas,
} from './quotas.ts';

const PROBE_MS = 1000;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export interface RedisQuotaEvents {
  down(error: string): void;
  up(downForMs: number): void;
}

/** A quota scaled for the fallback: at least one request per window. */
export function shareOf(q: Quota, share: number): Quota {
  return { requests: Math.max(1, Math.floor(q.requests * share)), windowSeconds: q.windowSeconds };
}

/**
 * Connects (waiting up to a second or four command deadlines): a Redis that is not reachable at
 * start does not stop the instance, which starts on the fallback and switches once Redis answers.
 */
export async function redisQuotas(
  c: QuotaConfig & { REDIS_URL: string },
  events: Partial<RedisQuotaEvents> = {},
): Promise<Quotas> {
  const client = new Redis(c.REDIS_URL, {
    // Never queue commands while disconnected: a decision fails at once and falls back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // The deadline that counts is `deadline()` below; ioredis's own only clears commands a
    // connected but silent Redis never answers (so they cannot pile up).
    commandTimeout: Math.max(5000, c.REDIS_TIMEOUT_MS * 10),
    connectTimeout: Math.max(1000, c.REDIS_TIMEOUT_MS * 4),
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(100 * times, 1000),
    lazyConnect: false,
  });
  // Connection errors are reported through the health state, not as unhandled events.
  client.on('error', () => undefined);

  /**
   * A command's answer within REDIS_TIMEOUT_MS of Redis's time, not of our event loop's
   * (withDeadline waits for the I/O phase before it gives up): an instance starved of CPU
   * never takes a healthy Redis for a dead one.
   */
  const deadline = <T>(p: Promise<T>): Promise<T> =>
    withDeadline(p, c.REDIS_TIMEOUT_MS, () => {
      throw new Error(`Redis did not answer within ${c.REDIS_TIMEOUT_MS} ms`);
    });

  const quotas = tierQuotas(c);
  // Each lease command within the deadline, as every Redis command here.
  const store = redisLeaseStore(client, deadline);
  const tiers = new Map<string, { quota: Quota; leases: QuotaLeases; policy: string }>();
  for (const [tier, quota] of Object.entries(quotas)) {
    const prefix = `${c.REDIS_KEY_PREFIX}:quota-lease:${tier}:${quota.windowSeconds}:`;
    tiers.set(tier, {
      quota,
      policy: `"${tier}";q=${quota.requests};w=${quota.windowSeconds}`,
      leases: new QuotaLeases(store, quota, {
        keyOf: (subject) => prefix + subject,
        maxLease: c.REDIS_LEASE_MAX,
        onError: (err) => markDown(err),
      }),
    });
  }
  const failedQuota = c.FAILED_AUTH_LIMIT;
  const failed = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: `${c.REDIS_KEY_PREFIX}:failed-auth:${failedQuota.windowSeconds}`,
    points: failedQuota.requests,
    duration: failedQuota.windowSeconds,
    rejectIfRedisNotReady: true,
  });

  const share = c.REDIS_FALLBACK_SHARE;
  const localTiers = new TierLimiter(
    Object.fromEntries(Object.entries(quotas).map(([t, q]) => [t, shareOf(q, share)])),
  );
  const localFailed = new FailedAuthLimiter(shareOf(failedQuota, share));

  const counters: QuotaCounters = {
    redisDecisions: 0,
    leaseDecisions: 0,
    fallbackDecisions: 0,
    redisErrors: 0,
    leaseTokensHeld: 0,
  };
  let downSince: number | null = null;
  // The error goes to the log (events.down), not to the public readiness body.
  let lastError: string | undefined;
  let probe: NodeJS.Timeout | null = null;
  let closed = false;

  const markUp = () => {
    if (downSince === null) return;
    const ms = Date.now() - downSince;
    downSince = null;
    if (probe) clearInterval(probe);
    probe = null;
    events.up?.(ms);
  };
  const markDown = (err: unknown) => {
    counters.redisErrors++;
    lastError = err instanceof Error ? err.message : String(err);
    if (downSince !== null || closed) return;
    downSince = Date.now();
    events.down?.(lastError);
    probe = setInterval(() => {
      if (client.status !== 'ready') return;
      deadline(client.ping()).then(markUp, (e: unknown) => {
        counters.redisErrors++;
        lastError = e instanceof Error ? e.message : String(e);
      });
    }, PROBE_MS);
    probe.unref();
  };

  const decision = (tier: string, policy: string, d: LeaseDecision): LimitDecision => {
    const resetSeconds = seconds(d.msLeft);
    const headers: LimitDecision['headers'] = {
      'RateLimit-Policy': policy,
      RateLimit: `"${tier}";r=${d.remaining};t=${resetSeconds}`,
    };
    if (!d.allowed) headers['Retry-After'] = String(resetSeconds);
    return { allowed: d.allowed, policy: tier, remaining: d.remaining, resetSeconds, headers };
  };

  const limits: QuotaLimiter = {
    consume(principal: Principal, clientIp: string) {
      const tier = principal.kind === 'demo' ? 'demo' : principal.tier;
      const entry = tiers.get(tier);
      if (!entry) throw new Error(`no quota configured for tier ${tier}`);
      const subject = principal.kind === 'demo' ? clientIp : principal.id;
      // In an outage the lease held is spent (it is counted in Redis), never renewed.
      const held = entry.leases.spendHeld(subject, downSince === null);
      if (held) {
        counters.leaseDecisions++;
        return decision(tier, entry.policy, held);
      }
      if (downSince !== null) {
        counters.fallbackDecisions++;
        return localTiers.consume(principal, clientIp);
      }
      return Promise.resolve(entry.leases.consume(subject)).then(
        (d) => {
          counters.redisDecisions++;
          return decision(tier, entry.policy, d);
        },
        (err: unknown) => {
          markDown(err);
          counters.fallbackDecisions++;
          return localTiers.consume(principal, clientIp);
        },
      );
    },
  };

  const failedAuth: FailedAuthGate = {
    blocked(ip: string) {
      if (downSince !== null) return localFailed.blocked(ip);
      return deadline(failed.get(ip)).then(
        (res) =>
          res && res.consumedPoints > failedQuota.requests ? seconds(res.msBeforeNext) : null,
        (err: unknown) => {
          markDown(err);
          return localFailed.blocked(ip);
        },
      );
    },
    fail(ip: string) {
      if (downSince !== null) return localFailed.fail(ip);
      deadline(failed.consume(ip, 1)).catch((res: unknown) => {
        if (res instanceof RateLimiterRes) return;
        markDown(res);
        localFailed.fail(ip);
      });
    },
  };

  if (client.status !== 'ready') {
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(1000, c.REDIS_TIMEOUT_MS * 4));
      client.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) markDown(new Error(`Redis not reachable at start (${client.status})`));
  }

  const health = (): QuotaBackendHealth =>
    downSince === null
      ? { backend: 'redis', status: 'ok' }
      : {
          backend: 'redis',
          status: 'fallback',
          fallback_share: share,
          down_for_seconds: Math.floor((Date.now() - downSince) / 1000),
        };

  const giveBack = (idleMs: number) =>
    Promise.all([...tiers.values()].map((t) => t.leases.giveBack(idleMs)));
  const idle = setInterval(() => {
    if (downSince === null) void giveBack(c.REDIS_LEASE_IDLE_MS);
  }, c.REDIS_LEASE_IDLE_MS);
  idle.unref();

  return {
    limits,
    failedAuth,
    health,
    counters: () => ({
      ...counters,
      leaseTokensHeld: [...tiers.values()].reduce((n, t) => n + t.leases.held(), 0),
    }),
    async close() {
      closed = true;
      clearInterval(idle);
      if (probe) clearInterval(probe);
      // Unspent tokens back to their windows, so the other instances can spend them.
      if (downSince === null) await within(giveBack(0), c.REDIS_TIMEOUT_MS * 2);
      client.disconnect();
    },
  };
}
