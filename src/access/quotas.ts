// Where quotas are counted: in this instance's memory (the default, `rate-limit.ts`), or with
// REDIS_URL in Redis, shared by every instance (`redis-limiter.ts`). The pipeline sees one
// interface; a limiter answers synchronously when it can (memory), with a promise otherwise.
import type { Principal } from './authenticator.ts';
import { FailedAuthLimiter, TierLimiter, type LimitDecision, type Quota } from './rate-limit.ts';

export interface QuotaLimiter {
  /** DEMO_KEY is limited per client address; subscription keys per key. */
  consume(principal: Principal, clientIp: string): LimitDecision | Promise<LimitDecision>;
}

export interface FailedAuthGate {
  /** Seconds to wait when the address is blocked, else null. */
  blocked(ip: string): number | null | Promise<number | null>;
  /** Counts one invalid key from the address (never waits, never throws). */
  fail(ip: string): void;
}

/** What /readyz detail and /metrics say about the quota counters. */
export interface QuotaBackendHealth {
  backend: 'memory' | 'redis';
  /** ok: counted where configured; fallback: Redis unreachable, counted per instance at `fallback_share`. */
  status: 'ok' | 'fallback';
  fallback_share?: number;
  /** Seconds since Redis stopped answering (fallback only). */
  down_for_seconds?: number;
}

export interface QuotaCounters {
  /** Decisions that waited for Redis (a new lease). */
  redisDecisions: number;
  /** Decisions taken from a lease held in this instance (no round trip). */
  leaseDecisions: number;
  /** Decisions taken locally because Redis was unreachable. */
  fallbackDecisions: number;
  /** Redis commands that failed or timed out. */
  redisErrors: number;
  /** Tokens this instance holds in leases, unspent (a gauge). */
  leaseTokensHeld: number;
}

export interface Quotas {
  limits: QuotaLimiter;
  failedAuth: FailedAuthGate;
  health(): QuotaBackendHealth;
  counters(): QuotaCounters;
  close(): Promise<void>;
}

export interface QuotaConfig {
  RATE_LIMIT_DEMO: Quota;
  RATE_LIMIT_INSTITUTIONAL: Quota;
  RATE_LIMIT_ENTERPRISE: Quota;
  FAILED_AUTH_LIMIT: Quota;
  REDIS_URL?: string | undefined;
  REDIS_KEY_PREFIX: string;
  REDIS_TIMEOUT_MS: number;
  REDIS_FALLBACK_SHARE: number;
  REDIS_LEASE_MAX: number;
  REDIS_LEASE_IDLE_MS: number;
}

const noDecisions: QuotaCounters = {
  redisDecisions: 0,
  leaseDecisions: 0,
  fallbackDecisions: 0,
  redisErrors: 0,
  leaseTokensHeld: 0,
};

export const tierQuotas = (c: QuotaConfig): Record<string, Quota> => ({
  demo: c.RATE_LIMIT_DEMO,
  institutional: c.RATE_LIMIT_INSTITUTIONAL,
  enterprise: c.RATE_LIMIT_ENTERPRISE,
});

export function memoryQuotas(c: QuotaConfig): Quotas {
  return {
    limits: new TierLimiter(tierQuotas(c)),
    failedAuth: new FailedAuthLimiter(c.FAILED_AUTH_LIMIT),
    health: () => ({ backend: 'memory', status: 'ok' }),
    counters: () => ({ ...noDecisions }),
    close: async () => undefined,
  };
}

/** The counters the configuration asks for: Redis with REDIS_URL, else this instance's memory. */
export async function createQuotas(
  c: QuotaConfig,
  events: { down?(error: string): void; up?(downForMs: number): void } = {},
): Promise<Quotas> {
  if (!c.REDIS_URL) return useQuotas(memoryQuotas(c));
  const { redisQuotas } = await import('./redis-limiter.ts');
  return useQuotas(await redisQuotas({ ...c, REDIS_URL: c.REDIS_URL }, events));
}

let current: Quotas | null = null;

/** Makes `quotas` the one `quotaBackendHealth()` reports (the runtime calls it once at start). */
export function useQuotas(quotas: Quotas): Quotas {
  current = quotas;
  return quotas;
}

/** The running instance's quota counters: for /readyz detail (never a reason to be unready). */
export function quotaBackendHealth(): QuotaBackendHealth {
  return current ? current.health() : { backend: 'memory', status: 'ok' };
}

export function quotaCounters(): QuotaCounters {
  return current ? current.counters() : { ...noDecisions };
}
