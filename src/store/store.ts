// The query layer: every read and write of the service database, identical for both drivers.
import type { Db, Param } from './db.ts';
import { BILLABLE_CLASSES, type StatusClass } from '../domain/billing.ts';

export interface KeyRow {
  id: string;
  key_hash: string;
  display_prefix: string;
  tier: string;
  owner: string;
  created_at: number;
  revoked_at: number | null;
}

export interface UsageIncrement {
  key_id: string;
  day: string;
  endpoint: string;
  /** '2xx', '3xx', '4xx' or '5xx' (see domain/billing.ts for what is billed). */
  status_class: StatusClass;
  requests: number;
}

export interface LatencyIncrement {
  minute: number;
  endpoint: string;
  bucket: number;
  requests: number;
}

export class Store {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async ping(): Promise<void> {
    await this.db.all('SELECT 1 AS ok');
  }

  // --- API keys (only hashes are stored) ---
  async insertKey(row: Omit<KeyRow, 'revoked_at'>): Promise<void> {
    await this.db.run(
      'INSERT INTO api_keys (id, key_hash, display_prefix, tier, owner, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      [row.id, row.key_hash, row.display_prefix, row.tier, row.owner, row.created_at],
    );
  }

  /** The keys among `hashes` (one query for them all; unknown hashes have no row). */
  async keysByHashes(hashes: readonly string[]): Promise<KeyRow[]> {
    if (hashes.length === 0) return [];
    const holes = hashes.map(() => '?').join(', ');
    return this.db.all<KeyRow>(`SELECT * FROM api_keys WHERE key_hash IN (${holes})`, [...hashes]);
  }

  async listKeys(): Promise<KeyRow[]> {
    return this.db.all<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
  }

  /** Revokes by id or display prefix; returns the keys revoked now. */
  async revokeKey(idOrPrefix: string, at: number): Promise<KeyRow[]> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<KeyRow>(
        'SELECT * FROM api_keys WHERE (id = ? OR display_prefix = ?) AND revoked_at IS NULL',
        [idOrPrefix, idOrPrefix],
      );
      for (const r of rows)
        await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [at, r.id]);
      return rows;
    });
  }

  async activeKeyCount(): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(
      'SELECT COUNT(*) AS n FROM api_keys WHERE revoked_at IS NULL',
    );
    return Number(row?.n ?? 0);
  }

  // --- metering ---
  /**
   * Records a batch id in the same transaction as its counts: a batch retried after a lost
   * acknowledgement is recognised and skipped. Returns false when the batch was already applied.
   */
  private static async claimBatch(tx: Db, batchId: string | undefined): Promise<boolean> {
    if (!batchId) return true;
    const claimed = await tx.run(
      'INSERT INTO flushed_batches (id, flushed_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
      [batchId, Date.now()],
    );
    return claimed > 0;
  }

  /**
   * Upserts rows in one fixed order (sorted by primary key) in every batch: two instances
   * writing the same rows then lock them in the same order and cannot deadlock each other.
   */
  private async upsertBatch<T>(
    batch: readonly T[],
    batchId: string | undefined,
    sortKey: (row: T) => string,
    sql: string,
    params: (row: T) => Param[],
  ): Promise<boolean> {
    if (!batch.length) return true;
    const rows = [...batch].sort((a, b) => {
      const x = sortKey(a);
      const y = sortKey(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return this.db.transaction(async (tx) => {
      if (!(await Store.claimBatch(tx, batchId))) return false;
      for (const row of rows) await tx.run(sql, params(row));
      return true;
    });
  }

  async addUsage(batch: readonly UsageIncrement[], batchId?: string): Promise<boolean> {
    return this.upsertBatch(
      batch,
      batchId,
      (u) => `${u.key_id}\u0000${u.day}\u0000${u.endpoint}\u0000${u.status_class}`,
      'INSERT INTO usage_daily (key_id, day, endpoint, status_class, requests) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key_id, day, endpoint, status_class) DO UPDATE SET requests = usage_daily.requests + excluded.requests',
      (u) => [u.key_id, u.day, u.endpoint, u.status_class, u.requests],
    );
  }

  /** Usage rows of every status class (`billable` tells which ones a subscription pays for). */
  async usage(
    filter: { keyId?: string; since?: string } = {},
  ): Promise<(UsageIncrement & { billable: boolean })[]> {
    const rows = await this.db.all<UsageIncrement>(
      // CAST: PostgreSQL cannot infer the type of a bare `? IS NULL`.
      'SELECT key_id, day, endpoint, status_class, requests FROM usage_daily WHERE (CAST(? AS TEXT) IS NULL OR key_id = ?) AND (CAST(? AS TEXT) IS NULL OR day >= ?) ORDER BY day, key_id, endpoint, status_class',
      [filter.keyId ?? null, filter.keyId ?? null, filter.since ?? null, filter.since ?? null],
    );
    return rows.map((r) => ({
      ...r,
      requests: Number(r.requests),
      billable: BILLABLE_CLASSES.includes(r.status_class),
    }));
  }

  /** Requests answered over every instance since `fromMinute` (from the latency histograms). */
  async requestsSince(fromMinute: number): Promise<number> {
    const [row] = await this.db.all<{ n: number | null }>(
      'SELECT SUM(requests) AS n FROM latency_buckets WHERE minute >= ?',
      [fromMinute],
    );
    return Number(row?.n ?? 0);
  }

  // --- heartbeats, instances and uptime intervals ---
  /**
   * Extends this instance's current running interval (which began at `intervalFrom`) to `now`,
   * and its last-seen time.
   */
  async heartbeat(
    instance: { id: string; startedAt: number; host: string; pid: number },
    intervalFrom: number,
    now: number,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        'INSERT INTO uptime_intervals (instance_id, from_ms, to_ms) VALUES (?, ?, ?) ON CONFLICT (instance_id, from_ms) DO UPDATE SET to_ms = excluded.to_ms',
        [instance.id, intervalFrom, now],
      );
      await tx.run(
        'INSERT INTO instances (instance_id, started_at, last_seen, host, pid) VALUES (?, ?, ?, ?, ?) ON CONFLICT (instance_id) DO UPDATE SET last_seen = excluded.last_seen',
        [instance.id, instance.startedAt, now, instance.host, instance.pid],
      );
    });
  }

  async instancesAlive(now: number, withinMs: number): Promise<number> {
    const [row] = await this.db.all<{ n: number }>(
      'SELECT COUNT(*) AS n FROM instances WHERE last_seen >= ?',
      [now - withinMs],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Running intervals of every instance overlapping [fromMs, toMs), and when monitoring began
   * (the earliest interval kept). Few rows: one per continuous run of an instance.
   */
  async uptimeIntervals(
    fromMs: number,
    toMs: number,
  ): Promise<{ intervals: [number, number][]; first: number | null }> {
    const rows = await this.db.all<{ from_ms: number; to_ms: number }>(
      'SELECT from_ms, to_ms FROM uptime_intervals WHERE to_ms >= ? AND from_ms < ? ORDER BY from_ms',
      [fromMs, toMs],
    );
    const [first] = await this.db.all<{ m: number | null }>(
      'SELECT MIN(from_ms) AS m FROM uptime_intervals',
    );
    return {
      intervals: rows.map((r) => [Number(r.from_ms), Number(r.to_ms)]),
      first: first?.m === null || first?.m === undefined ? null : Number(first.m),
    };
  }

  // --- latency histograms (mergeable across instances) ---
  async addLatency(batch: readonly LatencyIncrement[], batchId?: string): Promise<boolean> {
    return this.upsertBatch(
      batch,
      batchId,
      // Fixed-width numbers, so the string order is the numeric order.
      (l) =>
        `${String(l.minute).padStart(12, '0')}\u0000${l.endpoint}\u0000${String(l.bucket).padStart(3, '0')}`,
      'INSERT INTO latency_buckets (minute, endpoint, bucket, requests) VALUES (?, ?, ?, ?) ON CONFLICT (minute, endpoint, bucket) DO UPDATE SET requests = latency_buckets.requests + excluded.requests',
      (l) => [l.minute, l.endpoint, l.bucket, l.requests],
    );
  }

  /** Bucket counts per endpoint merged over every instance since `fromMinute`. */
  async latencyWindow(
    fromMinute: number,
  ): Promise<{ endpoint: string; bucket: number; requests: number }[]> {
    const rows = await this.db.all<{ endpoint: string; bucket: number; requests: number }>(
      'SELECT endpoint, bucket, SUM(requests) AS requests FROM latency_buckets WHERE minute >= ? GROUP BY endpoint, bucket',
      [fromMinute],
    );
    return rows.map((r) => ({
      endpoint: r.endpoint,
      bucket: Number(r.bucket),
      requests: Number(r.requests),
    }));
  }

  /**
   * One small step of retention: deletes at most `stepMinutes` of the oldest history before
   * `beforeMinute` from each table (short statements, short locks). Returns the rows deleted;
   * the caller repeats until a step deletes nothing.
   */
  async pruneStep(beforeMinute: number, now: number, stepMinutes = 60): Promise<number> {
    let deleted = 0;
    const [oldest] = await this.db.all<{ m: number | null }>(
      'SELECT MIN(minute) AS m FROM latency_buckets',
    );
    if (oldest?.m !== null && oldest?.m !== undefined && Number(oldest.m) < beforeMinute) {
      const upTo = Math.min(beforeMinute, Number(oldest.m) + stepMinutes);
      deleted += await this.db.run('DELETE FROM latency_buckets WHERE minute < ?', [upTo]);
    }
    const beforeMs = beforeMinute * 60_000;
    deleted += await this.db.run('DELETE FROM uptime_intervals WHERE to_ms < ?', [beforeMs]);
    deleted += await this.db.run('DELETE FROM instances WHERE last_seen < ?', [beforeMs]);
    // A batch id only matters while its batch might still be retried (journals included).
    const batchesBefore = now - 7 * 86_400_000;
    const [first] = await this.db.all<{ t: number | null }>(
      'SELECT MIN(flushed_at) AS t FROM flushed_batches',
    );
    if (first?.t !== null && first?.t !== undefined && Number(first.t) < batchesBefore) {
      const upTo = Math.min(batchesBefore, Number(first.t) + stepMinutes * 60_000);
      deleted += await this.db.run('DELETE FROM flushed_batches WHERE flushed_at < ?', [upTo]);
    }
    return deleted;
  }
}
