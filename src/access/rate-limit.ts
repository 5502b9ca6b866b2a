// Per-tier quotas (rate-limiter-flexible, in memory), the IETF RateLimit header fields, and the
// failed-authentication limiter per client address.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from './authenticator.ts';

export interface Quota {
  requests: number;
  windowSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  policy: string;
  remaining: number;
  resetSeconds: number;
  /** The header values to send. */
  headers: { 'RateLimit-Policy': string; RateLimit: string; 'Retry-After'?: string };
}

export function parseQuota(text: string): Quota | null {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return null;
  const q = { requests: Number(m[1]), windowSeconds: Number(m[2]) };
  return q.requests > 0 && q.windowSeconds > 0 ? q : null;
}

function decision(
  policy: string,
  quota: Quota,
  res: RateLimiterRes,
  allowed: boolean,
): LimitDecision {
  const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  const remaining = Math.max(0, res.remainingPoints);
  const headers: LimitDecision['headers'] = {
    'RateLimit-Policy': `"${policy}";q=${quota.requests};w=${quota.windowSeconds}`,
    RateLimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
  };
  // Retry-After must not be earlier than the end of the window that refused the request.
  if (!allowed) headers['Retry-After'] = String(resetSeconds);
  return { allowed, policy, remaining, resetSeconds, headers };
}

export class TierLimiter {
  private readonly limiters = new Map<string, { quota: Quota; limiter: RateLimiterMemory }>();

  constructor(quotas: Record<string, Quota>) {
    for (const [tier, quota] of Object.entries(quotas)) {
      this.limiters.set(tier, {
        quota,
        limiter: new RateLimiterMemory({
          keyPrefix: tier,
          points: quota.requests,
          duration: quota.windowSeconds,
        }),
      });
    }
  }

  /** DEMO_KEY is limited per client address; subscription keys per key. */
  async consume(principal: Principal, clientIp: string): Promise<LimitDecision> {
    const tier = principal.kind === 'demo' ? 'demo' : principal.tier;
    const entry = this.limiters.get(tier);
    if (!entry) throw new Error(`no quota configured for tier ${tier}`);
    const subject = principal.kind === 'demo' ? clientIp : principal.id;
    try {
      return decision(tier, entry.quota, await entry.limiter.consume(subject, 1), true);
    } catch (err) {
      if (err instanceof RateLimiterRes) return decision(tier, entry.quota, err, false);
      throw err;
    }
  }
}

/** Counts invalid keys per client address; past the quota the address is refused for the window. */
export class FailedAuthLimiter {
  private readonly limiter: RateLimiterMemory;
  readonly quota: Quota;

  constructor(quota: Quota) {
    this.quota = quota;
    this.limiter = new RateLimiterMemory({
      keyPrefix: 'failed-auth',
      points: quota.requests,
      duration: quota.windowSeconds,
    });
  }

  /** Seconds to wait when the address is blocked, else null. */
  async blocked(ip: string): Promise<number | null> {
    const res = await this.limiter.get(ip);
    if (res && res.consumedPoints > this.quota.requests)
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return null;
  }

  async fail(ip: string): Promise<void> {
    await this.limiter.penalty(ip, 1);
  }
}
