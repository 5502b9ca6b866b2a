// Counts in memory and flushes in batches. A failed flush puts its counts back, so nothing
// counted is lost while the database is away; a successful flush clears them, so nothing is
// counted twice.
export class BatchedCounter<K> {
  private pending = new Map<string, { key: K; n: number }>();
  private readonly keyOf: (key: K) => string;

  constructor(keyOf: (key: K) => string) {
    this.keyOf = keyOf;
  }

  add(key: K, n = 1): void {
    const id = this.keyOf(key);
    const entry = this.pending.get(id);
    if (entry) entry.n += n;
    else this.pending.set(id, { key, n });
  }

  get size(): number {
    return this.pending.size;
  }

  /** Hands the pending counts to `write`; on failure they are merged back and the error rethrown. */
  async flush(write: (batch: { key: K; n: number }[]) => Promise<void>): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await write(batch);
      return batch.length;
    } catch (err) {
      for (const { key, n } of batch) this.add(key, n);
      throw err;
    }
  }
}
