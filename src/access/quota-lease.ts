// Quota leases: an instance takes a batch of tokens from a subject's shared window in Redis (one
// atomic script) and spends them in memory, so most decisions cost no round trip. Tokens are
// counted in Redis when leased, so N instances never pass more than one quota between them.
//
// A lease is at most a quarter of what is left in the window (and at most `maxLease`): near the
// limit it shrinks to one token, taken for the request that needs it, so no instance sits on
// tokens another one's client is refused for. A large lease is renewed ahead, when a quarter of
// it is left, so a busy key does not stall on a round trip. Unspent tokens go back to the window when a lease
// has been idle for `idleMs` (a client that moved to another instance) and at shutdown; a return
// only lands in the window it was taken from.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { BoundedMap } from '../lib/bounded-map.ts';
import type { Quota } from './rate-limit.ts';
import { MAX_SUBJECTS } from './rate-limit.ts';

/** A lease never exceeds 1/LEASE_DIVISOR of what is left in the window. */
export const LEASE_DIVISOR = 4;
/**
 * A lease of at least this many tokens is renewed ahead, when a quarter of it is left, so a busy
 * key never waits for Redis; a smaller one (near the limit) is not, so that the counts there do
 * not depend on when a renewal lands.
 */
export const RENEW_AHEAD_FROM = 8;

/** What Redis granted: `tokens` (0 = the window is spent), the window's count and time left. */
export interface Grant {
  tokens: number;
  /** Tokens leased from the window so far, this grant included. */
  leased: number;
  msLeft: number;
  /** The window's identity: a return names it, so it never lands in a later window. */
  windowId: string;
}

/** Where the shared windows live (Redis in production and in the tests). */
export interface LeaseStore {
  take(key: string, quota: Quota, maxLease: number): Promise<Grant>;
  give(key: string, windowId: string, tokens: number): Promise<void>;
}

// KEYS[1]: the window (hash: leased, id; expires with the window).
// ARGV: quota, window ms, max lease, divisor, id for a new window.
const TAKE = `
local quota, windowMs = tonumber(ARGV[1]), tonumber(ARGV[2])
local maxLease, divisor = tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl = redis.call('PTTL', KEYS[1])
local leased, id
if ttl <= 0 then
  leased, id, ttl = 0, ARGV[5], windowMs
  redis.call('HSET', KEYS[1], 'leased', 0, 'id', id)
  redis.call('PEXPIRE', KEYS[1], windowMs)
else
  local v = redis.call('HMGET', KEYS[1], 'leased', 'id')
  leased, id = tonumber(v[1]) or 0, v[2]
end
local left = quota - leased
local grant = 0
if left > 0 then
  grant = math.max(1, math.min(maxLease, math.floor(left / divisor)))
  leased = redis.call('HINCRBY', KEYS[1], 'leased', grant)
end
return {grant, leased, ttl, id}
`;

// KEYS[1]: the window; ARGV: its id when the tokens were taken, tokens to give back.
const GIVE = `
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
if redis.call('HINCRBY', KEYS[1], 'leased', -tonumber(ARGV[2])) < 0 then
  redis.call('HSET', KEYS[1], 'leased', 0)
end
return 1
`;

type LeaseCommands = {
  taiLeaseTake(
    key: string,
    ...args: (string | number)[]
  ): Promise<[number, number, number, string]>;
  taiLeaseGive(key: string, id: string, tokens: number): Promise<number>;
};

/** The lease scripts on `client` (EVALSHA, loaded on first use); `guard` bounds each command. */
export function redisLeaseStore(
  client: Redis,
  guard: <T>(p: Promise<T>) => Promise<T> = (p) => p,
): LeaseStore {
  client.defineCommand('taiLeaseTake', { numberOfKeys: 1, lua: TAKE });
  client.defineCommand('taiLeaseGive', { numberOfKeys: 1, lua: GIVE });
  const redis = client as unknown as LeaseCommands;
  return {
    async take(key, quota, maxLease) {
      const [tokens, leased, msLeft, windowId] = await guard(
        redis.taiLeaseTake(
          key,
          quota.requests,
          quota.windowSeconds * 1000,
          maxLease,
          LEASE_DIVISOR,
          randomUUID(),
        ),
      );
      return { tokens, leased, msLeft, windowId };
    },
    async give(key, windowId, tokens) {
      await guard(redis.taiLeaseGive(key, windowId, tokens));
    },
  };
}

export interface LeaseDecision {
  allowed: boolean;
  /** What is left of the quota as far as this instance knows (its lease included). */
  remaining: number;
  msLeft: number;
}

interface Lease {
  windowId: string;
  /** Unspent tokens held here. */
  tokens: number;
  /** The window's leased count at the last grant. */
  leased: number;
  endsAt: number;
  lastUsed: number;
  /** Tokens in the last grant: the size of the next one, roughly. */
  lastGrant: number;
}

export interface QuotaLeaseOptions {
  /** Redis key of a subject's window. */
  keyOf(subject: string): string;
  maxLease: number;
  now?: () => number;
  maxSubjects?: number;
  /** A renewal ahead failed (no request waits on it; the caller may mark Redis down). */
  onError?: (err: unknown) => void;
}

/** One tier's quota, spent from leases. */
export class QuotaLeases {
  private readonly leases: BoundedMap<string, Lease>;
  /** One grant in flight per subject: concurrent requests wait for it instead of each taking one. */
  private readonly taking = new Map<string, Promise<Grant>>();
  private readonly now: () => number;
  private readonly store: LeaseStore;
  private readonly quota: Quota;
  private readonly opts: QuotaLeaseOptions;

  constructor(store: LeaseStore, quota: Quota, opts: QuotaLeaseOptions) {
    this.store = store;
    this.quota = quota;
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    // A lease dropped when the map is full is lost to its window: stricter, never looser.
    this.leases = new BoundedMap(opts.maxSubjects ?? MAX_SUBJECTS);
  }

  /** Spends one token: from the lease held (synchronous), else from a new grant. Rejects when the store fails. */
  consume(subject: string): LeaseDecision | Promise<LeaseDecision> {
    return this.spendHeld(subject) ?? this.grant(subject);
  }

  /**
   * Spends one token of the lease held, or null (none, spent, or its window is over). With
   * `renew`, a large lease down to a quarter is renewed ahead, in the background.
   */
  spendHeld(subject: string, renew = true): LeaseDecision | null {
    const lease = this.leases.get(subject);
    if (!lease) return null;
    const now = this.now();
    if (lease.endsAt <= now) {
      this.leases.delete(subject);
      return null;
    }
    if (lease.tokens === 0) return null;
    lease.tokens--;
    lease.lastUsed = now;
    if (
      renew &&
      lease.lastGrant >= RENEW_AHEAD_FROM &&
      lease.tokens <= lease.lastGrant / LEASE_DIVISOR &&
      !this.taking.has(subject)
    )
      this.take(subject).then(
        (got) => void (got.tokens > 0 && this.add(subject, got, 0)),
        (err: unknown) => this.opts.onError?.(err),
      );
    return this.allowed(lease, now);
  }

  private async grant(subject: string): Promise<LeaseDecision> {
    const inFlight = this.taking.get(subject);
    const held = this.leases.get(subject);
    // Waiting for the grant in flight pays when it brings several tokens; one-token grants (near
    // the limit, or REDIS_LEASE_MAX=1) are taken side by side, as Redis counts them atomically.
    if (inFlight && (held === undefined || held.lastGrant > 1)) {
      const shared = await inFlight;
      // The window was spent when that grant was taken: refused with it, no second round trip.
      if (shared.tokens === 0) return this.refusal(shared);
      return this.consume(subject);
    }
    const got = await this.take(subject);
    if (got.tokens === 0) return this.refusal(got);
    return this.allowed(this.add(subject, got, 1), this.now());
  }

  /** One grant from the store, remembered as the subject's grant in flight until it settles. */
  private take(subject: string): Promise<Grant> {
    const taking = this.store.take(this.opts.keyOf(subject), this.quota, this.opts.maxLease);
    this.taking.set(subject, taking);
    const settled = () => {
      if (this.taking.get(subject) === taking) this.taking.delete(subject);
    };
    taking.then(settled, settled);
    return taking;
  }

  /** Adds a grant to the subject's lease (a new lease in a new window), `spent` tokens used at once. */
  private add(subject: string, got: Grant, spent: number): Lease {
    const now = this.now();
    const held = this.leases.get(subject);
    if (held && held.windowId === got.windowId && held.endsAt > now) {
      held.tokens += got.tokens - spent;
      held.leased = Math.max(held.leased, got.leased);
      held.lastGrant = got.tokens;
      return held;
    }
    const lease: Lease = {
      windowId: got.windowId,
      tokens: got.tokens - spent,
      leased: got.leased,
      endsAt: now + got.msLeft,
      lastUsed: now,
      lastGrant: got.tokens,
    };
    this.leases.delete(subject);
    this.leases.set(subject, lease);
    return lease;
  }

  private refusal(g: Grant): LeaseDecision {
    return { allowed: false, remaining: 0, msLeft: g.msLeft };
  }

  private allowed(lease: Lease, now: number): LeaseDecision {
    return {
      allowed: true,
      remaining: Math.max(0, this.quota.requests - lease.leased) + lease.tokens,
      msLeft: lease.endsAt - now,
    };
  }

  /** Tokens held here, unspent, in windows not yet over. */
  held(): number {
    const now = this.now();
    let n = 0;
    for (const l of this.leases.values()) if (l.endsAt > now) n += l.tokens;
    return n;
  }

  /**
   * Gives back the unspent tokens of every lease idle for `idleMs` (all of them with 0, at
   * shutdown). Leases are dropped first, so no request spends a token while it travels back;
   * a return that fails leaves the tokens spent for the window (stricter, never looser).
   */
  async giveBack(idleMs: number): Promise<number> {
    const now = this.now();
    const returns: Promise<void>[] = [];
    let tokens = 0;
    for (const [subject, lease] of this.leases) {
      if (now - lease.lastUsed < idleMs) continue;
      this.leases.delete(subject);
      if (lease.tokens === 0 || lease.endsAt <= now) continue;
      tokens += lease.tokens;
      returns.push(this.store.give(this.opts.keyOf(subject), lease.windowId, lease.tokens));
    }
    await Promise.allSettled(returns);
    return tokens;
  }
}
