// Counts in memory and flushes in batches, exactly once. A batch taken for writing keeps its id
// until the database confirms it; a failed write is retried with the same batch and id, and the
// database skips an id it has already applied (the commit may have succeeded even though its
// acknowledgement was lost). So nothing counted is lost while the database is away, and nothing
// is counted twice.
import { randomUUID } from 'node:crypto';

export interface Batch<K> {
  id: string;
  entries: { key: K; n: number }[];
}

export class BatchedCounter<K> {
  private pending = new Map<string, { key: K; n: number }>();
  private inflight: Batch<K> | null = null;
  private readonly keyOf: (key: K) => string;

  constructor(keyOf: (key: K) => string) {
    this.keyOf = keyOf;
  }

  add(key: K, n = 1): void {
    this.addById(this.keyOf(key), () => key, n);
  }

  /** The hot path: no key object is built unless the entry is new. */
  addById(id: string, makeKey: () => K, n = 1): void {
    const entry = this.pending.get(id);
    if (entry) entry.n += n;
    else this.pending.set(id, { key: makeKey(), n });
  }

  /** Entries not yet confirmed by the database. */
  get size(): number {
    return this.pending.size + (this.inflight?.entries.length ?? 0);
  }

  /** Writes the unconfirmed batch (if any) and then the pending counts; throws, keeping them, on failure. */
  async flush(write: (batch: Batch<K>) => Promise<unknown>): Promise<number> {
    let written = 0;
    if (this.inflight) {
      await write(this.inflight);
      written += this.inflight.entries.length;
      this.inflight = null;
    }
    if (this.pending.size === 0) return written;
    this.inflight = { id: randomUUID(), entries: [...this.pending.values()] };
    this.pending = new Map();
    await write(this.inflight);
    written += this.inflight.entries.length;
    this.inflight = null;
    return written;
  }
}
