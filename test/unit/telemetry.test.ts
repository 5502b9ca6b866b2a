import { describe, expect, it } from 'vitest';
import { BatchedCounter } from '../../src/telemetry/batched-counter.ts';
import {
  BUCKETS,
  GROWTH,
  bucketOf,
  percentiles,
  upperBoundMs,
} from '../../src/telemetry/histogram.ts';

describe('latency histogram', () => {
  it('puts each latency in the bucket whose upper bound is the first at or above it', () => {
    for (const ms of [0.01, 0.05, 0.06, 1, 3.7, 250, 10_000]) {
      const b = bucketOf(ms);
      expect(upperBoundMs(b)).toBeGreaterThanOrEqual(
        Math.min(ms, upperBoundMs(BUCKETS - 1)) - 1e-9,
      );
      if (b > 0) expect(upperBoundMs(b - 1)).toBeLessThan(ms);
    }
    expect(bucketOf(1e9)).toBe(BUCKETS - 1);
  });

  it('reports percentiles within one bucket (25 %) of the exact value, and merges by addition', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 0.2 + i * 0.01);
    const a = new Map<number, number>();
    const b = new Map<number, number>();
    samples.forEach((ms, i) => {
      const m = i % 2 ? a : b;
      m.set(bucketOf(ms), (m.get(bucketOf(ms)) ?? 0) + 1);
    });
    const merged = new Map(a);
    for (const [k, v] of b) merged.set(k, (merged.get(k) ?? 0) + v);
    const { count, values } = percentiles(merged, [50, 99]);
    expect(count).toBe(1000);
    const exact50 = samples[499]!;
    const exact99 = samples[989]!;
    expect(values[0]!).toBeGreaterThanOrEqual(exact50);
    expect(values[0]!).toBeLessThanOrEqual(exact50 * GROWTH + 0.001);
    expect(values[1]!).toBeGreaterThanOrEqual(exact99);
    expect(values[1]!).toBeLessThanOrEqual(exact99 * GROWTH + 0.001);
    expect(percentiles(new Map(), [50])).toEqual({ count: 0, values: [null] });
  });
});

describe('batched counter', () => {
  it('retries a failed batch with the same id, then writes what was counted meanwhile', async () => {
    const c = new BatchedCounter<{ k: string }>((x) => x.k);
    c.add({ k: 'a' });
    c.add({ k: 'a' });
    c.add({ k: 'b' }, 3);
    const failed: string[] = [];
    await expect(
      c.flush(async (b) => (failed.push(b.id), Promise.reject(new Error('db down')))),
    ).rejects.toThrow('db down');
    c.add({ k: 'a' });
    expect(c.size).toBe(3);
    const written: { id: string; counts: Record<string, number> }[] = [];
    await c.flush(
      async (b) =>
        void written.push({
          id: b.id,
          counts: Object.fromEntries(b.entries.map((e) => [e.key.k, e.n])),
        }),
    );
    // The retried batch keeps its id (the database skips it if the lost commit had in fact landed).
    expect(written).toEqual([
      { id: failed[0], counts: { a: 2, b: 3 } },
      { id: expect.any(String), counts: { a: 1 } },
    ]);
    expect(written[1]!.id).not.toBe(failed[0]);
    expect(c.size).toBe(0);
    expect(await c.flush(async () => Promise.reject(new Error('never called')))).toBe(0);
  });
});

describe('batched counter flushes are single-flight (issue #14 item 1)', () => {
  /** A write whose outcome the test decides, in the order it chooses. */
  function controlled() {
    const calls: { id: string; n: number; ok(): void; fail(): void }[] = [];
    const write = (b: { id: string; entries: { n: number }[] }) =>
      new Promise<void>((resolve, reject) =>
        calls.push({
          id: b.id,
          n: b.entries.reduce((s, e) => s + e.n, 0),
          ok: () => resolve(),
          fail: () => reject(new Error('db down')),
        }),
      );
    return { calls, write };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('a shutdown flush overlapping a timer flush waits for it, then writes the rest', async () => {
    const c = new BatchedCounter<{ k: string }>((x) => x.k);
    const { calls, write } = controlled();
    c.add({ k: 'a' }, 2);
    const timer = c.flush(write); // waits on the database with batch X
    await tick();
    c.add({ k: 'a' }, 3); // counted meanwhile (Y)
    const shutdown = c.drain(write);
    await tick();
    // Before the fix the shutdown wrote X a second time, and whichever run finished second
    // cleared the other's batch (or threw on the null it left).
    expect(calls.map((x) => x.n)).toEqual([2]);
    calls[0]!.ok();
    expect(await timer).toBe(1);
    await tick();
    expect(calls.map((x) => x.n)).toEqual([2, 3]);
    calls[1]!.fail(); // Y fails at shutdown: kept (for the retry, or the local journal)
    await expect(shutdown).rejects.toThrow('db down');
    expect(c.pendingCount).toBe(3);
    const retry = c.flush(write);
    await tick();
    expect(calls[2]!.id).toBe(calls[1]!.id);
    calls[2]!.ok();
    expect(await retry).toBe(1);
    expect(c.size).toBe(0);
  });
});
