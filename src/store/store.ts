// The query layer: every read and write of the service database, identical for both drivers.
import type { Db } from './db.ts';

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

  async keyByHash(hash: string): Promise<KeyRow | null> {
    const rows = await this.db.all<KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [hash]);
    return rows[0] ?? null;
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

  async addUsage(batch: readonly UsageIncrement[], batchId?: string): Promise<boolean> {
    if (!batch.length) return true;
    return this.db.transaction(async (tx) => {
      if (!(await Store.claimBatch(tx, batchId))) return false;
      for (const u of batch) {
        await tx.run(
          'INSERT INTO usage_daily (key_id, day, endpoint, requests) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, endpoint) DO UPDATE SET requests = usage_daily.requests + excluded.requests',
          [u.key_id, u.day, u.endpoint, u.requests],
        );
      }
      return true;
    });
  }

  async usage(filter: { keyId?: string; since?: string } = {}): Promise<UsageIncrement[]> {
    return this.db.all<UsageIncrement>(
      // CAST: PostgreSQL cannot infer the type of a bare `? IS NULL`.
      'SELECT key_id, day, endpoint, requests FROM usage_daily WHERE (CAST(? AS TEXT) IS NULL OR key_id = ?) AND (CAST(? AS TEXT) IS NULL OR day >= ?) ORDER BY day, key_id, endpoint',
      [filter.keyId ?? null, filter.keyId ?? null, filter.since ?? null, filter.since ?? null],
    );
  }

  // --- heartbeats and instances ---
  async heartbeat(
    instance: { id: string; startedAt: number; host: string; pid: number },
    now: number,
  ): Promise<void> {
    const minute = Math.floor(now / 60_000);
    await this.db.transaction(async (tx) => {
      await tx.run(
        'INSERT INTO heartbeats (instance_id, minute) VALUES (?, ?) ON CONFLICT (instance_id, minute) DO NOTHING',
        [instance.id, minute],
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

  /** Minutes in [fromMinute, toMinute) with at least one heartbeat, and the first minute ever seen. */
  async heartbeatMinutes(
    fromMinute: number,
    toMinute: number,
  ): Promise<{ up: number; first: number | null }> {
    const [up] = await this.db.all<{ n: number }>(
      'SELECT COUNT(DISTINCT minute) AS n FROM heartbeats WHERE minute >= ? AND minute < ?',
      [fromMinute, toMinute],
    );
    const [first] = await this.db.all<{ m: number | null }>(
      'SELECT MIN(minute) AS m FROM heartbeats',
    );
    return {
      up: Number(up?.n ?? 0),
      first: first?.m === null || first?.m === undefined ? null : Number(first.m),
    };
  }

  // --- latency histograms (mergeable across instances) ---
  async addLatency(batch: readonly LatencyIncrement[], batchId?: string): Promise<boolean> {
    if (!batch.length) return true;
    return this.db.transaction(async (tx) => {
      if (!(await Store.claimBatch(tx, batchId))) return false;
      for (const l of batch) {
        await tx.run(
          'INSERT INTO latency_buckets (minute, endpoint, bucket, requests) VALUES (?, ?, ?, ?) ON CONFLICT (minute, endpoint, bucket) DO UPDATE SET requests = latency_buckets.requests + excluded.requests',
          [l.minute, l.endpoint, l.bucket, l.requests],
        );
      }
      return true;
    });
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

  /** Drops history older than the longest window shown (30 days) plus a margin. */
  async prune(beforeMinute: number): Promise<void> {
    await this.db.run('DELETE FROM heartbeats WHERE minute < ?', [beforeMinute]);
    await this.db.run('DELETE FROM latency_buckets WHERE minute < ?', [beforeMinute]);
    // A batch id only matters while its batch might still be retried.
    await this.db.run('DELETE FROM flushed_batches WHERE flushed_at < ?', [
      Date.now() - 7 * 86_400_000,
    ]);
  }
}
