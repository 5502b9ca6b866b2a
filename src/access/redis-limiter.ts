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
} from './quota-backend.ts';

const PROBE_MS = 1000;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export interface RedisQuotaEvents {
  down(error: string): void;
  up(downForMs: number): void;
}

/** A quota scaled for the fallback: at least one request per window. */
export function shareOf(q: Quota, share: number): Quota {
  return { requests: Math.max(1, Math.floor(q.requests * share)), windowSeconds: q.windowSeconds };
}

type Deadline = <T>(p: Promise<T>) => Promise<T>;

/**
 * A command's answer within REDIS_TIMEOUT_MS of Redis's time, not of our event loop's
 * (withDeadline waits for the I/O phase before it gives up): an instance starved of CPU
 * never takes a healthy Redis for a dead one.
 */
function commandDeadline(timeoutMs: number): Deadline {
  return (p) =>
    withDeadline(p, timeoutMs, () => {
      throw new Error(`Redis did not answer within ${timeoutMs} ms`);
    });
}

function connectRedis(c: QuotaConfig & { REDIS_URL: string }): Redis {
  const client = new Redis(c.REDIS_URL, {
    // Never queue commands while disconnected: a decision fails at once and falls back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // The deadline that counts is `commandDeadline`; ioredis's own only clears commands a
    // connected but silent Redis never answers (so they cannot pile up).
    commandTimeout: Math.max(5000, c.REDIS_TIMEOUT_MS * 10),
    connectTimeout: Math.max(1000, c.REDIS_TIMEOUT_MS * 4),
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(100 * times, 1000),
    lazyConnect: false,
  });
  // Connection errors are reported through the health state, not as unhandled events.
  client.on('error', () => undefined);
  return client;
}

/**
 * Whether Redis answers: the first failure switches to the fallback (`down`), reports it and
 * pings every PROBE_MS; the first answer switches back. The error goes to the log
 * (events.down), not to the public readiness body.
 */
class RedisOutage {
  downSince: number | null = null;
  private lastError: string | undefined;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly client: Redis;
  private readonly deadline: Deadline;
  private readonly counters: QuotaCounters;
  private readonly events: Partial<RedisQuotaEvents>;

  constructor(
    client: Redis,
    deadline: Deadline,
    counters: QuotaCounters,
    events: Partial<RedisQuotaEvents>,
  ) {
    this.client = client;
    this.deadline = deadline;
    this.counters = counters;
    this.events = events;
  }

  get down(): boolean {
    return this.downSince !== null;
  }

  markUp(): void {
    if (this.downSince === null) return;
    const ms = Date.now() - this.downSince;
    this.downSince = null;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.events.up?.(ms);
  }

  markDown(err: unknown): void {
    this.counters.redisErrors++;
    this.lastError = messageOf(err);
    if (this.downSince !== null || this.closed) return;
    this.downSince = Date.now();
    this.events.down?.(this.lastError);
    this.probe = setInterval(() => {
      if (this.client.status !== 'ready') return;
      this.deadline(this.client.ping()).then(
        () => this.markUp(),
        (e: unknown) => {
          this.counters.redisErrors++;
          this.lastError = messageOf(e);
        },
      );
    }, PROBE_MS);
    this.probe.unref();
  }

  health(share: number): QuotaBackendHealth {
    return this.downSince === null
      ? { backend: 'redis', status: 'ok' }
      : {
          backend: 'redis',
          status: 'fallback',
          fallback_share: share,
          down_for_seconds: Math.floor((Date.now() - this.downSince) / 1000),
        };
  }

  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
  }
}

interface TierLeases {
  quota: Quota;
  leases: QuotaLeases;
  /** The RateLimit-Policy header's value. */
  policy: string;
}

/** Each tier's leases, each lease command within the deadline (as every Redis command here). */
function tierLeases(
  c: QuotaConfig,
  client: Redis,
  deadline: Deadline,
  outage: RedisOutage,
): Map<string, TierLeases> {
  const store = redisLeaseStore(client, deadline);
  const tiers = new Map<string, TierLeases>();
  for (const [tier, quota] of Object.entries(tierQuotas(c))) {
    const prefix = `${c.REDIS_KEY_PREFIX}:quota-lease:${tier}:${quota.windowSeconds}:`;
    tiers.set(tier, {
      quota,
      policy: `"${tier}";q=${quota.requests};w=${quota.windowSeconds}`,
      leases: new QuotaLeases(store, quota, {
        keyOf: (subject) => prefix + subject,
        maxLease: c.REDIS_LEASE_MAX,
        onError: (err) => outage.markDown(err),
      }),
    });
  }
  return tiers;
}

function leaseDecision(tier: string, policy: string, d: LeaseDecision): LimitDecision {
  const resetSeconds = seconds(d.msLeft);
  const headers: LimitDecision['headers'] = {
    'RateLimit-Policy': policy,
    RateLimit: `"${tier}";r=${d.remaining};t=${resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(resetSeconds);
  return { allowed: d.allowed, policy: tier, remaining: d.remaining, resetSeconds, headers };
}

/** Tier quotas from leases; in an outage the lease held is spent, then the local share. */
function leasedLimiter(
  tiers: Map<string, TierLeases>,
  local: TierLimiter,
  outage: RedisOutage,
  counters: QuotaCounters,
): QuotaLimiter {
  return {
    consume(principal: Principal, clientIp: string) {
      const tier = principal.kind === 'demo' ? 'demo' : principal.tier;
      const entry = tiers.get(tier);
      if (!entry) throw new Error(`no quota configured for tier ${tier}`);
      const subject = principal.kind === 'demo' ? clientIp : principal.id;
      // In an outage the lease held is spent (it is counted in Redis), never renewed.
      const held = entry.leases.spendHeld(subject, !outage.down);
      if (held) {
        counters.leaseDecisions++;
        return leaseDecision(tier, entry.policy, held);
      }
      if (outage.down) {
        counters.fallbackDecisions++;
        return local.consume(principal, clientIp);
      }
      return Promise.resolve(entry.leases.consume(subject)).then(
        (d) => {
          counters.redisDecisions++;
          return leaseDecision(tier, entry.policy, d);
        },
        (err: unknown) => {
          outage.markDown(err);
          counters.fallbackDecisions++;
          return local.consume(principal, clientIp);
        },
      );
    },
  };
}

/** The failed-auth block: one rate-limiter-flexible command per attempt, local in an outage. */
function redisFailedAuth(
  c: QuotaConfig,
  client: Redis,
  deadline: Deadline,
  outage: RedisOutage,
  local: FailedAuthLimiter,
): FailedAuthGate {
  const quota = c.FAILED_AUTH_LIMIT;
  const failed = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: `${c.REDIS_KEY_PREFIX}:failed-auth:${quota.windowSeconds}`,
    points: quota.requests,
    duration: quota.windowSeconds,
    rejectIfRedisNotReady: true,
  });
  return {
    blocked(ip: string) {
      if (outage.down) return local.blocked(ip);
      return deadline(failed.get(ip)).then(
        (res) => (res && res.consumedPoints > quota.requests ? seconds(res.msBeforeNext) : null),
        (err: unknown) => {
          outage.markDown(err);
          return local.blocked(ip);
        },
      );
    },
    fail(ip: string) {
      if (outage.down) return local.fail(ip);
      deadline(failed.consume(ip, 1)).catch((res: unknown) => {
        if (res instanceof RateLimiterRes) return;
        outage.markDown(res);
        local.fail(ip);
      });
    },
  };
}

/** Waits up to a second or four command deadlines for the connection; else starts down. */
async function awaitConnection(client: Redis, timeoutMs: number, outage: RedisOutage) {
  if (client.status === 'ready') return;
  const connected = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(1000, timeoutMs * 4));
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!connected) outage.markDown(new Error(`Redis not reachable at start (${client.status})`));
}

/**
 * Connects (waiting up to a second or four command deadlines): a Redis that is not reachable at
 * start does not stop the instance, which starts on the fallback and switches once Redis answers.
 */
export async function redisQuotas(
  c: QuotaConfig & { REDIS_URL: string },
  events: Partial<RedisQuotaEvents> = {},
): Promise<Quotas> {
  const client = connectRedis(c);
  const deadline = commandDeadline(c.REDIS_TIMEOUT_MS);
  const counters: QuotaCounters = {
    redisDecisions: 0,
    leaseDecisions: 0,
    fallbackDecisions: 0,
    redisErrors: 0,
    leaseTokensHeld: 0,
  };
  const outage = new RedisOutage(client, deadline, counters, events);
  const tiers = tierLeases(c, client, deadline, outage);
  const share = c.REDIS_FALLBACK_SHARE;
  const localTiers = new TierLimiter(
    Object.fromEntries([...tiers].map(([t, { quota }]) => [t, shareOf(quota, share)])),
  );
  const localFailed = new FailedAuthLimiter(shareOf(c.FAILED_AUTH_LIMIT, share));
  const failedAuth = redisFailedAuth(c, client, deadline, outage, localFailed);
  const limits = leasedLimiter(tiers, localTiers, outage, counters);

  await awaitConnection(client, c.REDIS_TIMEOUT_MS, outage);

  // Idle leases go back to their windows, so the other instances can spend them.
  const giveBack = (idleMs: number) =>
    Promise.all([...tiers.values()].map((t) => t.leases.giveBack(idleMs)));
  const idle = setInterval(() => {
    if (!outage.down) void giveBack(c.REDIS_LEASE_IDLE_MS);
  }, c.REDIS_LEASE_IDLE_MS);
  idle.unref();

  return {
    limits,
    failedAuth,
    health: () => outage.health(share),
    counters: () => ({
      ...counters,
      leaseTokensHeld: [...tiers.values()].reduce((n, t) => n + t.leases.held(), 0),
    }),
    async close() {
      clearInterval(idle);
      outage.close();
      // Unspent tokens back to their windows, so the other instances can spend them.
      if (!outage.down) await within(giveBack(0), c.REDIS_TIMEOUT_MS * 2);
      client.disconnect();
    },
  };
}
