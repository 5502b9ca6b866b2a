// Log-scale latency buckets shared by every instance, so histograms merge by adding counts.
// Bucket i holds latencies up to BASE_MS × GROWTH^i; a percentile reports its bucket's upper
// bound, so it overstates by at most GROWTH − 1 (25 %).
export const BASE_MS = 0.05;
export const GROWTH = 1.25;
export const BUCKETS = 64;

const LOG_GROWTH = Math.log(GROWTH);

export function bucketOf(ms: number): number {
  if (!(ms > BASE_MS)) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / BASE_MS) / LOG_GROWTH));
}

export function upperBoundMs(bucket: number): number {
  return BASE_MS * GROWTH ** bucket;
}

/** Percentiles (0–100) of a merged histogram {bucket → count}; null when it is empty. */
export function percentiles(
  counts: ReadonlyMap<number, number>,
  ps: readonly number[],
): { count: number; values: (number | null)[] } {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return { count: 0, values: ps.map(() => null) };
  const sorted = [...counts.entries()].sort((a, b) => a[0] - b[0]);
  const values = ps.map((p) => {
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (const [bucket, n] of sorted) {
      seen += n;
      if (seen >= rank) return Math.round(upperBoundMs(bucket) * 1000) / 1000;
    }
    return Math.round(upperBoundMs(sorted[sorted.length - 1]![0]) * 1000) / 1000;
  });
  return { count: total, values };
}
