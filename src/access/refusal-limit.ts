// A limit per client address on requests that are refused without a key that works (issue #37):
// no key, an invalid one, an unknown path. Each such refusal counts against the
// address (its /64 for IPv6); past the limit the address is answered 429 at once, before any other
// work, until its window ends, unless the request carries a key already known good (a paying
// client behind the same NAT is never held back by someone else's refusals). Counted per instance
// (in memory, rate-limiter-flexible): with N instances an address gets at most N times the limit.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Quota } from './rate-limit.ts';

export interface RefusalLimit {
  /** Seconds the address must wait, or null when it may be served. */
  blockedFor(address: string): number | null;
  /** Counts one refused request from the address (never waits, never throws). */
  refused(address: string): void;
}

/** Addresses remembered as blocked at most (a flood from many addresses cannot grow it without end). */
const MAX_BLOCKED = 100_000;

export function refusalLimit(quota: Quota): RefusalLimit {
  const limiter = new RateLimiterMemory({
    points: quota.requests,
    duration: quota.windowSeconds,
  });
  // Until when (ms) each blocked address waits: read synchronously on every request.
  const blocked = new Map<string, number>();
  return {
    blockedFor(address) {
      if (blocked.size === 0) return null;
      const until = blocked.get(address);
      if (until === undefined) return null;
      const left = until - Date.now();
      if (left > 0) return Math.ceil(left / 1000);
      blocked.delete(address);
      return null;
    },
    refused(address) {
      limiter.consume(address).catch((r: unknown) => {
        if (!(r instanceof RateLimiterRes)) return;
        if (blocked.size >= MAX_BLOCKED) {
          const now = Date.now();
          for (const [a, until] of blocked) if (until <= now) blocked.delete(a);
          if (blocked.size >= MAX_BLOCKED) return;
        }
        blocked.set(address, Date.now() + r.msBeforeNext);
      });
    },
  };
}
