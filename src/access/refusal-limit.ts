// A limit per client address on requests that are refused without a key that works (issue #37):
// no key, an invalid one, an unknown path. Each such refusal counts against the
// address (its /64 for IPv6); past the limit the address is answered 429 at once, before any other
// work, until its window ends, unless the request carries a key already known good (a paying
// client behind the same NAT is never held back by someone else's refusals). Counted per instance
// in memory: with N instances an address gets at most N times the limit.
//
// The counting is the failed-auth limiter's (rate-limit.ts: synchronous fixed windows, at most
// MAX_SUBJECTS addresses). rate-limiter-flexible's memory store, used before, kept a record and a
// timer for every address of the window: a flood from many addresses grew it by about 700 bytes
// per address, without a bound, and each refusal cost a promise.
import { FailedAuthLimiter, MAX_SUBJECTS, type Quota } from './rate-limit.ts';

export interface RefusalLimit {
  /** Seconds the address must wait, or null when it may be served. */
  blockedFor(address: string): number | null;
  /** Counts one refused request from the address (never waits, never throws). */
  refused(address: string): void;
}

export function refusalLimit(
  quota: Quota,
  now: () => number = Date.now,
  maxAddresses = MAX_SUBJECTS,
): RefusalLimit {
  const limiter = new FailedAuthLimiter(quota, now, maxAddresses);
  return {
    blockedFor: (address) => limiter.blocked(address),
    refused: (address) => limiter.fail(address),
  };
}
