// Counts in memory and flushes in batches, exactly once. A batch taken for writing keeps its id
// until the database confirms it; a failed write is retried with the same batch and id, and the
// database skips an id it has already applied (the commit may have succeeded even though its
// acknowledgement was lost). So nothing counted is lost while the database is away, and nothing
// is counted twice.
//
// Flushes are single-flight: a timer flush still waiting on the database and the shutdown flush
// share one run, so two writers never take or clear the same batch. With a journal attached, the
// counts also reach local disk every `journalEvery` counts (and whenever `journalNow` is called),
// and each batch is sealed there before it goes to the database (see journal.ts).
import { randomUUID } from 'node:crypto';
import type { CounterJournal, Delta } from './journal.ts';

export interface Batch<K> {
  id: string;
  entries: { key: K; n: number }[];
}

interface Entry<K> {
  key: K;
  n: number;
  /** How much of `n` the journal already holds. */
  j: number;
}

export class BatchedCounter<K> {
  private pending = new Map<string, Entry<K>>();
  private inflight: (Batch<K> & { segment: string | null }) | null = null;
  private flushing: Promise<number> | null = null;
  private readonly keyOf: (key: K) => string;
  private readonly journal: CounterJournal<K> | null;
  private readonly journalEvery: number;
  private unjournaled = 0;
  private journaling = false;

  constructor(
    keyOf: (key: K) => string,
    options: { journal?: CounterJournal<K> | null; journalEvery?: number } = {},
  ) {
    this.keyOf = keyOf;
    this.journal = options.journal ?? null;
    this.journalEvery = options.journalEvery ?? 1000;
  }

  add(key: K, n = 1): void {
    this.addById(this.keyOf(key), () => key, n);
  }

  /** The hot path: adds to the entry `id` when there is one; false (nothing counted) if not. */
  increment(id: string, n = 1): boolean {
    const entry = this.pending.get(id);
    if (entry === undefined) return false;
    entry.n += n;
    if (this.journal && (this.unjournaled += n) >= this.journalEvery) void this.journalNow();
    return true;
  }

  /** No key object is built unless the entry is new. */
  addById(id: string, makeKey: () => K, n = 1): void {
    const entry = this.pending.get(id);
    if (entry) entry.n += n;
    else this.pending.set(id, { key: makeKey(), n, j: 0 });
    if (this.journal && (this.unjournaled += n) >= this.journalEvery) void this.journalNow();
  }

  /** Entries not yet confirmed by the database. */
  get size(): number {
    return this.pending.size + (this.inflight?.entries.length ?? 0);
  }

  /** Counts (not entries) not yet confirmed by the database. */
  get pendingCount(): number {
    let n = 0;
    for (const e of this.pending.values()) n += e.n;
    for (const e of this.inflight?.entries ?? []) n += e.n;
    return n;
  }

  private takeDeltas(entries: Iterable<Entry<K>>): Delta<K>[] {
    const deltas: Delta<K>[] = [];
    for (const e of entries) {
      if (e.n > e.j) deltas.push([e.key, e.n - e.j]);
      e.j = e.n;
    }
    return deltas;
  }

  /** Writes the counts not yet journaled; one write at a time, later counts wait for the next. */
  async journalNow(): Promise<void> {
    if (!this.journal || this.journaling) return;
    this.journaling = true;
    this.unjournaled = 0;
    try {
      await this.journal.append(this.takeDeltas(this.pending.values()));
    } finally {
      this.journaling = false;
    }
  }

  /** Writes the unconfirmed batch (if any) and then the pending counts; throws, keeping them, on failure. */
  flush(write: (batch: Batch<K>) => Promise<unknown>): Promise<number> {
    return (this.flushing ??= this.flushOnce(write).finally(() => (this.flushing = null)));
  }

  /** For shutdown: lets a running flush finish (whatever its outcome), then flushes the rest. */
  async drain(write: (batch: Batch<K>) => Promise<unknown>): Promise<number> {
    await this.flushing?.catch(() => undefined);
    return this.flush(write);
  }

  private async flushOnce(write: (batch: Batch<K>) => Promise<unknown>): Promise<number> {
    let written = 0;
    if (this.inflight) {
      const batch = this.inflight;
      await write(batch);
      written += batch.entries.length;
      this.inflight = null;
      await this.journal?.done(batch.segment);
    }
    if (this.pending.size === 0) return written;
    const taken = [...this.pending.values()];
    this.pending = new Map();
    this.unjournaled = 0;
    const id = randomUUID();
    // The batch is on disk, under its id, before the database may see it.
    const segment = this.journal ? await this.journal.seal(id, this.takeDeltas(taken)) : null;
    const batch = { id, entries: taken.map((e) => ({ key: e.key, n: e.n })), segment };
    this.inflight = batch;
    await write(batch);
    written += batch.entries.length;
    this.inflight = null;
    await this.journal?.done(segment);
    return written;
  }
}
