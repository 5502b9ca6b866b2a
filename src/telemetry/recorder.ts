// What the request path records: usage per key per day per endpoint, and latency per minute per
// endpoint per bucket. Both are flushed to the database in batches on a timer and at shutdown.
import type { Store } from '../store/store.ts';
import { BatchedCounter } from './batched-counter.ts';
import { bucketOf } from './histogram.ts';

interface UsageKey {
  key_id: string;
  day: string;
  endpoint: string;
}
interface LatencyKey {
  minute: number;
  endpoint: string;
  bucket: number;
}

export class Recorder {
  readonly usage = new BatchedCounter<UsageKey>(
    (k) => `${k.key_id}\u0000${k.day}\u0000${k.endpoint}`,
  );
  readonly latency = new BatchedCounter<LatencyKey>(
    (k) => `${k.minute}\u0000${k.endpoint}\u0000${k.bucket}`,
  );

  private readonly store: Store | null;

  constructor(store: Store | null) {
    this.store = store;
  }

  private dayMinute = -1;
  private day = '';

  record(endpoint: string, keyId: string | null, ms: number, now = Date.now()): void {
    const minute = Math.floor(now / 60_000);
    const bucket = bucketOf(ms);
    this.latency.addById(`${minute}\u0000${endpoint}\u0000${bucket}`, () => ({
      minute,
      endpoint,
      bucket,
    }));
    if (minute !== this.dayMinute) {
      this.dayMinute = minute;
      this.day = new Date(now).toISOString().slice(0, 10);
    }
    const day = this.day;
    if (keyId)
      this.usage.addById(`${keyId}\u0000${day}\u0000${endpoint}`, () => ({
        key_id: keyId,
        day,
        endpoint,
      }));
  }

  /** Writes both batches; throws (keeping the counts) when the database cannot take them. */
  async flush(): Promise<void> {
    if (!this.store) return;
    const store = this.store;
    await this.usage.flush((batch) =>
      store.addUsage(
        batch.entries.map(({ key, n }) => ({ ...key, requests: n })),
        batch.id,
      ),
    );
    await this.latency.flush((batch) =>
      store.addLatency(
        batch.entries.map(({ key, n }) => ({ ...key, requests: n })),
        batch.id,
      ),
    );
  }
}
