// Where quotas are counted: in this instance's memory (the default, `rate-limit.ts`), or with
// REDIS_URL in Redis, shared by every instance (`redis-limiter.ts`). The pipeline sees one
// interface; a limiter answers synchronously when it can (memory), with a promise otherwise.
import { FailedAuthLimiter, TierLimiter } from './rate-limit.ts';
import {
  NO_DECISIONS,
  tierQuotas,
  type QuotaBackendHealth,
  type QuotaConfig,
  type QuotaCounters,
  type Quotas,
} from './quota-backend.ts';

export function memoryQuotas(c: QuotaConfig): Quotas {
  return {
    limits: new TierLimiter(tierQuotas(c)),
    failedAuth: new FailedAuthLimiter(c.FAILED_AUTH_LIMIT),
    health: () => ({ backend: 'memory', status: 'ok' }),
    counters: () => ({ ...NO_DECISIONS }),
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
  return current ? current.counters() : { ...NO_DECISIONS };
}
