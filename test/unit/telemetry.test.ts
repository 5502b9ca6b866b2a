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
