// A limit per client address on requests that are refused without a key that works (issue #37):
// no key, an invalid one, an unknown path. Each such refusal counts against the
// address (its /64 for IPv6); past the limit the address is answered 429 at once, before any other
// work, until its window ends, unless the request carries a key already known good (a paying
// client behind the same NAT is never held back by someone else's refusals). Counted per instance
// in memory: with N instances an address gets at most N times the limit.
//
// Counted synchronously in the fixed windows of rate-limit.ts, bounded to MAX_SUBJECTS addresses
// (rate-limiter-flexible's memory store, used before, kept a record and a timer for every address
// of the window: a flood from many addresses grew it by about 700 bytes per address, without a
// bound, and each refusal cost a promise).
import { FixedWindowCounter, MAX_SUBJECTS, type Quota } from './rate-limit.ts';

export interface RefusalLimit {
  /** Seconds the address must wait, or null when it may be served. */
  blockedFor(address: string): number | null;
  /** Counts one refused request from the address (never waits, never throws). */
  refused(address: string): void;
}

/** Addresses remembered as blocked at most (a flood from many addresses cannot grow it without end). */
const MAX_BLOCKED = 100_000;

export function refusalLimit(
  quota: Quota,
  now: () => number = Date.now,
  maxAddresses = MAX_SUBJECTS,
): RefusalLimit {
  const counter = new FixedWindowCounter(quota.windowSeconds, now, maxAddresses);
  // Until when (ms) each blocked address waits: read on every request, so kept apart from the
  // counts (empty, the usual case, it costs nothing).
  const blocked = new Map<string, number>();
  return {
    blockedFor(address) {
      if (blocked.size === 0) return null;
      const until = blocked.get(address);
      if (until === undefined) return null;
      const left = until - now();
      if (left > 0) return Math.ceil(left / 1000);
      blocked.delete(address);
      return null;
    },
    refused(address) {
      const { count, msLeft } = counter.add(address);
      if (count <= quota.requests) return;
      const at = now();
      if ((blocked.get(address) ?? 0) > at) return; // already blocked until its window ends
      if (blocked.size >= MAX_BLOCKED) {
        for (const [a, until] of blocked) if (until <= at) blocked.delete(a);
        if (blocked.size >= MAX_BLOCKED) return;
      }
      blocked.set(address, at + msLeft);
    },
  };
}
