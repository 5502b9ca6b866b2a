// What the request path records: usage per key per day per endpoint per status class, and
// latency per minute per endpoint per bucket. Both are journaled to local disk (when a journal
// directory is given) and flushed to the database in batches on a timer and at shutdown.
import path from 'node:path';
import type { Store } from '../store/store.ts';
import { BatchedCounter } from './batched-counter.ts';
import { statusClass, type StatusClass } from './billing.ts';
import { bucketOf } from './histogram.ts';
import { CounterJournal, type Orphan } from './journal.ts';

interface UsageKey {
  key_id: string;
  day: string;
  endpoint: string;
  status_class: StatusClass;
}
interface LatencyKey {
  minute: number;
  endpoint: string;
  bucket: number;
}

export interface RecorderOptions {
  /** Where the metering journal lives (see journal.ts); none: counts live in memory only. */
  journalDir?: string | undefined;
  /** Journal every this many counts (as well as on the journal timer). */
  journalEvery?: number;
  onJournalError?: (err: Error) => void;
}

export class Recorder {
  readonly usage: BatchedCounter<UsageKey>;
  readonly latency: BatchedCounter<LatencyKey>;
  /** Batches left on disk by a previous process, replayed before our own. */
  private orphans: { usage: Orphan<UsageKey>[]; latency: Orphan<LatencyKey>[] } = {
    usage: [],
    latency: [],
  };
  private readonly journals: CounterJournal<unknown>[] = [];
  private readonly store: Store | null;

  constructor(store: Store | null, options: RecorderOptions = {}) {
    this.store = store;
    const dir = options.journalDir;
    const onError = options.onJournalError ?? (() => undefined);
    // A journal directory that cannot be created or read (read-only volume) is reported, and
    // metering goes on without it: it must never keep the service from starting.
    const journal = <K>(name: string) => {
      if (!dir) return null;
      try {
        const j = new CounterJournal<K>(path.resolve(dir), name, onError);
        this.journals.push(j as CounterJournal<unknown>);
        return j;
      } catch (err) {
        onError(err as Error);
        return null;
      }
    };
    const adopt = <K>(name: string) => {
      try {
        return dir ? CounterJournal.adopt<K>(path.resolve(dir), name) : [];
      } catch (err) {
        onError(err as Error);
        return [];
      }
    };
    this.usage = new BatchedCounter<UsageKey>(
      (k) => `${k.key_id}\u0000${k.day}\u0000${k.endpoint}\u0000${k.status_class}`,
      { journal: journal<UsageKey>('usage'), journalEvery: options.journalEvery ?? 1000 },
    );
    this.latency = new BatchedCounter<LatencyKey>(
      (k) => `${k.minute}\u0000${k.endpoint}\u0000${k.bucket}`,
      { journal: journal<LatencyKey>('latency'), journalEvery: options.journalEvery ?? 1000 },
    );
    this.orphans = { usage: adopt<UsageKey>('usage'), latency: adopt<LatencyKey>('latency') };
  }

  /** Requests (usage counts) left by a previous process and not yet written. */
  get carriedOver(): number {
    return this.orphans.usage.reduce((n, o) => n + o.entries.reduce((m, e) => m + e.n, 0), 0);
  }

  private dayMinute = -1;
  private day = '';

  record(
    endpoint: string,
    keyId: string | null,
    ms: number,
    status: number,
    now = Date.now(),
  ): void {
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
    const cls = statusClass(status);
    if (keyId)
      this.usage.addById(`${keyId}\u0000${day}\u0000${endpoint}\u0000${cls}`, () => ({
        key_id: keyId,
        day,
        endpoint,
        status_class: cls,
      }));
  }

  /** Puts the counts not yet on disk into the journal (timer, and before exit). */
  async journalNow(): Promise<void> {
    await Promise.all([this.usage.journalNow(), this.latency.journalNow()]);
  }

  /** Writes the carried-over batches, then both counters; throws (keeping the counts) on failure. */
  async flush(): Promise<void> {
    if (!this.store) return;
    await this.replayOrphans();
    await this.usage.flush((batch) => this.writeUsage(batch.entries, batch.id));
    await this.latency.flush((batch) => this.writeLatency(batch.entries, batch.id));
  }

  /** For shutdown: waits for a running flush, then writes the rest (see BatchedCounter.drain). */
  async drain(): Promise<void> {
    if (!this.store) return;
    await this.replayOrphans();
    await this.usage.drain((batch) => this.writeUsage(batch.entries, batch.id));
    await this.latency.drain((batch) => this.writeLatency(batch.entries, batch.id));
  }

  /** Journals what is left and closes the journal files (they are replayed at the next start). */
  async closeJournal(): Promise<void> {
    await this.journalNow();
    await Promise.all(this.journals.map((j) => j.close()));
  }

  private writeUsage(entries: { key: UsageKey; n: number }[], id: string) {
    return this.store!.addUsage(
      entries.map(({ key, n }) => ({ ...key, requests: n })),
      id,
    );
  }

  private writeLatency(entries: { key: LatencyKey; n: number }[], id: string) {
    return this.store!.addLatency(
      entries.map(({ key, n }) => ({ ...key, requests: n })),
      id,
    );
  }

  private replaying: Promise<void> | null = null;
  /** Single-flight, like the counters: one replay at a time. */
  private replayOrphans(): Promise<void> {
    return (this.replaying ??= (async () => {
      try {
        while (this.orphans.usage.length) {
          const o = this.orphans.usage[0]!;
          await this.writeUsage(o.entries, o.id);
          this.orphans.usage.shift();
          await CounterJournal.discard(o.file);
        }
        while (this.orphans.latency.length) {
          const o = this.orphans.latency[0]!;
          await this.writeLatency(o.entries, o.id);
          this.orphans.latency.shift();
          await CounterJournal.discard(o.file);
        }
      } finally {
        this.replaying = null;
      }
    })());
  }
}
