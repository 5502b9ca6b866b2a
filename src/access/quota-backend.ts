// What a quota backend is: the interfaces the pipeline sees (a limiter per tier, the failed-auth
// gate), its health and counters, and the configuration both backends read. Its own module so
// that the memory backend (`quotas.ts`) and the Redis one (`redis-limiter.ts`) import it, not
// each other.
import type { Principal } from './authenticator.ts';
import type { LimitDecision, Quota } from './rate-limit.ts';

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

export const NO_DECISIONS: Readonly<QuotaCounters> = {
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
