// Quota leases (src/access/quota-lease.ts) on the machine's real Redis, two lessees standing for
// two instances, each with its own injected clock: the lease size, the shrink to one token near
// the limit, one grant in flight per subject, idle and shutdown returns, and returns that never
// land in a later window.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  QuotaLeases,
  redisLeaseStore,
  type Grant,
  type LeaseDecision,
  type LeaseStore,
} from '../../src/access/quota-lease.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];

let client: Redis;
beforeAll(() => {
  if (TEST_REDIS_URL) client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(() => client?.disconnect());

/** The real store, with every grant it answered kept in order. */
function recordingStore() {
  const store = redisLeaseStore(client);
  const grants: number[] = [];
  const recorded: LeaseStore = {
    async take(key, quota, maxLease) {
      const g: Grant = await store.take(key, quota, maxLease);
      grants.push(g.tokens);
      return g;
    },
    give: (key, id, n) => store.give(key, id, n),
  };
  return { store: recorded, grants };
}

function lessees(quota: { requests: number; windowSeconds: number }, maxLease = 100) {
  const { store, grants } = recordingStore();
  const key = `tai-test-${randomUUID().slice(0, 8)}:lease:`;
  const clock = { a: 1_000_000, b: 5_000_000 };
  const make = (which: 'a' | 'b') =>
    new QuotaLeases(store, quota, { keyOf: (s) => key + s, maxLease, now: () => clock[which] });
  const leased = async (subject: string) => Number(await client.hget(key + subject, 'leased')) || 0;
  return { a: make('a'), b: make('b'), grants, clock, leased, keyOf: (s: string) => key + s };
}

const allowed = async (d: LeaseDecision | Promise<LeaseDecision>) => (await d).allowed;

describeNeeding('redis')('quota leases on Redis', () => {
  it('a client alternating between two instances meets exactly one quota (20 of 40 pass, the first 20)', async () => {
    const { a, b, grants, leased } = lessees({ requests: 20, windowSeconds: 60 });
    const passed: boolean[] = [];
    for (let i = 0; i < 40; i++) passed.push(await allowed((i % 2 ? b : a).consume('client')));
    expect(passed).toEqual([...Array<boolean>(20).fill(true), ...Array<boolean>(20).fill(false)]);
    expect(await leased('client')).toBe(20);
    // A quarter of what is left, then one token at a time near the limit; 0 once spent.
    expect(grants.filter((g) => g > 0)).toEqual([5, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect(grants.filter((g) => g > 0).reduce((x, y) => x + y)).toBe(20);
  });

  it('spends a lease without a round trip, up to the largest lease', async () => {
    const { a, grants, leased } = lessees({ requests: 10_000, windowSeconds: 60 }, 100);
    const first = a.consume('busy');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ allowed: true, remaining: 9_999 });
    for (let i = 0; i < 99; i++) {
      const d = a.consume('busy');
      // Synchronous: no Redis command for the next 99.
      expect(d).not.toBeInstanceOf(Promise);
      expect((d as LeaseDecision).allowed).toBe(true);
    }
    const next = a.consume('busy');
    expect(next).toBeInstanceOf(Promise);
    expect(await allowed(next)).toBe(true);
    expect(grants).toEqual([100, 100]);
    expect(await leased('busy')).toBe(200);
  });

  it('renews a large lease ahead, when a quarter is left: a busy key never waits for Redis', async () => {
    const { a, grants, leased } = lessees({ requests: 10_000, windowSeconds: 60 }, 100);
    expect(await allowed(a.consume('hot'))).toBe(true);
    // 74 more leave 25 (a quarter of 100): the 74th starts a renewal in the background.
    for (let i = 0; i < 74; i++) expect(a.consume('hot')).not.toBeInstanceOf(Promise);
    expect(a.held()).toBe(25);
    // Polled, not timed: the renewal lands while 25 are still held.
    for (let i = 0; i < 100 && a.held() === 25; i++) await new Promise((r) => setTimeout(r, 10));
    expect(a.held()).toBe(125);
    expect(grants).toEqual([100, 100]);
    expect(await leased('hot')).toBe(200);
    for (let i = 0; i < 125; i++) expect(a.consume('hot')).not.toBeInstanceOf(Promise);
  });

  it('one-token grants near the limit are taken side by side, not one after the other', async () => {
    const { a, grants } = lessees({ requests: 3, windowSeconds: 60 });
    expect(await allowed(a.consume('edge'))).toBe(true);
    const decisions = await Promise.all(Array.from({ length: 4 }, () => a.consume('edge')));
    expect(decisions.map((d) => d.allowed).sort()).toEqual([false, false, true, true]);
    // Four takes in flight at once, each answered by Redis on its own: 1, 1, 0, 0.
    expect(grants.slice(1).sort()).toEqual([0, 0, 1, 1]);
  });

  it('concurrent requests for a subject wait for one grant', async () => {
    const { a, grants } = lessees({ requests: 400, windowSeconds: 60 });
    const decisions = await Promise.all(Array.from({ length: 30 }, () => a.consume('burst')));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    // 400/4 = 100 tokens cover all 30: one round trip.
    expect(grants).toEqual([100]);
    expect(a.held()).toBe(70);
  });

  it('a window spent refuses the waiters of the same grant without another round trip', async () => {
    const { a, b, grants } = lessees({ requests: 1, windowSeconds: 60 });
    expect(await allowed(b.consume('c'))).toBe(true);
    const decisions = await Promise.all(Array.from({ length: 5 }, () => a.consume('c')));
    expect(decisions.map((d) => d.allowed)).toEqual([false, false, false, false, false]);
    expect(decisions[0]!.msLeft).toBeGreaterThan(0);
    expect(grants).toEqual([1, 0]);
  });

  it('an idle lease goes back to its window, so the client meets its quota on the other instance', async () => {
    const { a, b, clock, leased } = lessees({ requests: 20, windowSeconds: 60 });
    expect(await allowed(a.consume('mover'))).toBe(true);
    expect(a.held()).toBe(4);
    expect(await leased('mover')).toBe(5);
    // Not idle yet: nothing goes back.
    clock.a += 999;
    expect(await a.giveBack(1000)).toBe(0);
    clock.a += 1;
    expect(await a.giveBack(1000)).toBe(4);
    expect(await leased('mover')).toBe(1);
    expect(a.held()).toBe(0);
    // The client now uses b only: 19 more pass, then refused.
    const passed = [];
    for (let i = 0; i < 21; i++) passed.push(await allowed(b.consume('mover')));
    expect(passed.filter(Boolean)).toHaveLength(19);
    expect(passed.slice(19)).toEqual([false, false]);
  });

  it('gives every lease back at shutdown, and a return never lands in a later window', async () => {
    const { a, leased, keyOf } = lessees({ requests: 100, windowSeconds: 60 });
    for (const s of ['x', 'y']) expect(await allowed(a.consume(s))).toBe(true);
    expect([await leased('x'), await leased('y')]).toEqual([25, 25]);
    // y's window ends (as when it expires) and another instance opens the next one.
    await client.del(keyOf('y'));
    const other = new QuotaLeases(
      redisLeaseStore(client),
      { requests: 100, windowSeconds: 60 },
      { keyOf, maxLease: 1 },
    );
    expect(await allowed(other.consume('y'))).toBe(true);
    expect(await a.giveBack(0)).toBe(48);
    expect(await leased('x')).toBe(1);
    // y's 24 unspent tokens belonged to the window that ended: the new one keeps its count.
    expect(await leased('y')).toBe(1);
  });

  it('a lease ends with its window: its tokens are not spent in the next one', async () => {
    const { a, clock, grants } = lessees({ requests: 100, windowSeconds: 60 });
    expect(await allowed(a.consume('w'))).toBe(true);
    expect(a.held()).toBe(24);
    clock.a += 60_000;
    expect(a.held()).toBe(0);
    // The local window is over: the 24 tokens are dropped and the next request asks Redis (whose
    // window, on Redis's real clock, still has 75 left: a quarter of them).
    const next = a.consume('w');
    expect(next).toBeInstanceOf(Promise);
    expect(await allowed(next)).toBe(true);
    expect(grants).toEqual([25, 18]);
  });

  it('a store that fails rejects the decision (the caller falls back)', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    down.on('error', () => undefined);
    const leases = new QuotaLeases(
      redisLeaseStore(down),
      { requests: 10, windowSeconds: 60 },
      {
        keyOf: (s) => s,
        maxLease: 10,
      },
    );
    await expect(leases.consume('z')).rejects.toThrow();
    down.disconnect();
  });
});
