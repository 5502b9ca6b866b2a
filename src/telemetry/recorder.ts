// What the request path records: usage per key per day per endpoint per status class, and
// latency per minute per endpoint per bucket. Both are journaled to local disk (when a journal
// directory is given) and flushed to the database in batches on a timer and at shutdown.
import path from 'node:path';
import type { z } from 'zod';
import type { Store } from '../store/store.ts';
import { BatchedCounter } from './batched-counter.ts';
import { statusClass, type StatusClass } from '../domain/billing.ts';
import { bucketOf } from './histogram.ts';
import { CounterJournal, type EntryCheck, type Orphan, type Quarantined } from './journal.ts';
import { latencyKey, MAX_REPLAY_RATE_PER_SECOND, usageKey } from './journal-entries.ts';

export interface UsageKey {
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
  /** A replayed segment or line failed its check and was moved aside (see journal.ts). */
  onQuarantine?: (q: Quarantined) => void;
}

/** statusClass() by index: <300, <400, <500, else. */
const STATUS_CLASSES: readonly StatusClass[] = [
  statusClass(200),
  statusClass(300),
  statusClass(400),
  statusClass(500),
];
const ID_CACHE_ENTRIES = 10_000;

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
    const adopt = <K>(name: string, check: EntryCheck<K>) => {
      try {
        return dir
          ? CounterJournal.adopt<K>(path.resolve(dir), name, check, options.onQuarantine)
          : [];
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
    this.orphans = {
      usage: adopt<UsageKey>('usage', {
        key: usageKey as z.ZodType<UsageKey>,
        // A replayed segment bills a key no more in a day than the instance could have answered.
        bound: {
          groupName: 'key and day',
          groupOf: (k) => ({ group: `${k.key_id} ${k.day}`, day: k.day }),
          maxPerSecond: MAX_REPLAY_RATE_PER_SECOND,
        },
      }),
      latency: adopt<LatencyKey>('latency', { key: latencyKey }),
    };
  }

  /** Requests (usage counts) left by a previous process and not yet written. */
  get carriedOver(): number {
    return this.orphans.usage.reduce((n, o) => n + o.entries.reduce((m, e) => m + e.n, 0), 0);
  }

  private dayMinute = -1;
  private day = '';
  /**
   * The counters' entry ids, made once and reused (a string built per request had to be hashed
   * per request too): latency ids of the current minute by endpoint and bucket, usage ids of the
   * current day by key, endpoint and status class. Bounded: cleared when they grow past
   * ID_CACHE_ENTRIES (a cache, never the counts).
   */
  private latencyIds = new Map<string, string[]>();
  private usageIds = new Map<string, Map<string, string[]>>();

  record(
    endpoint: string,
    keyId: string | null,
    ms: number,
    status: number,
    now = Date.now(),
  ): void {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.dayMinute) {
      this.dayMinute = minute;
      this.latencyIds.clear();
      const day = new Date(now).toISOString().slice(0, 10);
      if (day !== this.day) this.usageIds.clear();
      this.day = day;
    }
    const bucket = bucketOf(ms);
    let buckets = this.latencyIds.get(endpoint);
    if (buckets === undefined) {
      if (this.latencyIds.size >= ID_CACHE_ENTRIES) this.latencyIds.clear();
      this.latencyIds.set(endpoint, (buckets = []));
    }
    const latencyId = (buckets[bucket] ??= `${minute}\u0000${endpoint}\u0000${bucket}`);
    if (!this.latency.increment(latencyId))
      this.latency.addById(latencyId, () => ({ minute, endpoint, bucket }));
    if (!keyId) return;
    const day = this.day;
    let byEndpoint = this.usageIds.get(keyId);
    if (byEndpoint === undefined) {
      if (this.usageIds.size >= ID_CACHE_ENTRIES) this.usageIds.clear();
      this.usageIds.set(keyId, (byEndpoint = new Map()));
    }
    let classes = byEndpoint.get(endpoint);
    if (classes === undefined) byEndpoint.set(endpoint, (classes = []));
    const c = status < 300 ? 0 : status < 400 ? 1 : status < 500 ? 2 : 3;
    const cls = STATUS_CLASSES[c]!;
    const usageId = (classes[c] ??= `${keyId}\u0000${day}\u0000${endpoint}\u0000${cls}`);
    if (!this.usage.increment(usageId))
      this.usage.addById(usageId, () => ({
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

  /**
   * Writes the carried-over batches, then both counters; throws (keeping the counts) on failure.
   * Carried-over batches go in batches of their own, and one that fails never holds back the
   * live counts.
   */
  async flush(): Promise<void> {
    if (!this.store) return;
    const replayed = this.replayOrphans().then(
      () => null,
      (err: unknown) => err,
    );
    await this.usage.flush((batch) => this.writeUsage(batch.entries, batch.id));
    await this.latency.flush((batch) => this.writeLatency(batch.entries, batch.id));
    const err = await replayed;
    if (err) throw err;
  }

  /** For shutdown: waits for a running flush, then writes the rest (see BatchedCounter.drain). */
  async drain(): Promise<void> {
    if (!this.store) return;
    const replayed = this.replayOrphans().then(
      () => null,
      (err: unknown) => err,
    );
    await this.usage.drain((batch) => this.writeUsage(batch.entries, batch.id));
    await this.latency.drain((batch) => this.writeLatency(batch.entries, batch.id));
    const err = await replayed;
    if (err) throw err;
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
