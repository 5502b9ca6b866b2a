// Versioned migrations, one set for SQLite and PostgreSQL. Append only: never edit a released one.
import type { Db } from './db.ts';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'keys, usage, heartbeats, latency',
    statements: [
      `CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        display_prefix TEXT NOT NULL,
        tier TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        revoked_at BIGINT
      )`,
      `CREATE TABLE usage_daily (
        key_id TEXT NOT NULL,
        day TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        requests BIGINT NOT NULL,
        PRIMARY KEY (key_id, day, endpoint)
      )`,
      `CREATE TABLE instances (
        instance_id TEXT PRIMARY KEY,
        started_at BIGINT NOT NULL,
        last_seen BIGINT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL
      )`,
      `CREATE TABLE heartbeats (
        instance_id TEXT NOT NULL,
        minute BIGINT NOT NULL,
        PRIMARY KEY (instance_id, minute)
      )`,
      'CREATE INDEX heartbeats_minute ON heartbeats (minute)',
      `CREATE TABLE latency_buckets (
        minute BIGINT NOT NULL,
        endpoint TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        requests BIGINT NOT NULL,
        PRIMARY KEY (minute, endpoint, bucket)
      )`,
    ],
  },
  {
    version: 2,
    name: 'exactly-once metering batches',
    statements: ['CREATE TABLE flushed_batches (id TEXT PRIMARY KEY, flushed_at BIGINT NOT NULL)'],
  },
  {
    version: 3,
    name: 'usage per status class, uptime intervals, batch retention index',
    statements: [
      // The status class joins the primary key, so the table is rebuilt (SQLite cannot alter a
      // primary key). Rows counted before the split were billed as they stood: they stay 2xx.
      `CREATE TABLE usage_daily_v3 (
        key_id TEXT NOT NULL,
        day TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        status_class TEXT NOT NULL,
        requests BIGINT NOT NULL,
        PRIMARY KEY (key_id, day, endpoint, status_class)
      )`,
      `INSERT INTO usage_daily_v3 (key_id, day, endpoint, status_class, requests)
        SELECT key_id, day, endpoint, '2xx', requests FROM usage_daily`,
      'DROP TABLE usage_daily',
      'ALTER TABLE usage_daily_v3 RENAME TO usage_daily',
      // Availability as users see it: the union of every instance's running intervals.
      `CREATE TABLE uptime_intervals (
        instance_id TEXT NOT NULL,
        from_ms BIGINT NOT NULL,
        to_ms BIGINT NOT NULL,
        PRIMARY KEY (instance_id, from_ms)
      )`,
      'CREATE INDEX uptime_intervals_to ON uptime_intervals (to_ms)',
      `INSERT INTO uptime_intervals (instance_id, from_ms, to_ms)
        SELECT instance_id, MIN(minute) * 60000, (MAX(minute) + 1) * 60000 FROM heartbeats GROUP BY instance_id`,
      'DROP TABLE heartbeats',
      'CREATE INDEX flushed_batches_at ON flushed_batches (flushed_at)',
    ],
  },
];

/** Applies pending migrations under a cross-process lock; safe when two instances start together. */
export async function migrate(db: Db, now = Date.now()): Promise<number[]> {
  return db.withMigrationLock(async (tx) => {
    await tx.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const applied = new Set(
      (await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) =>
        Number(r.version),
      ),
    );
    const done: number[] = [];
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      // PostgreSQL holds an advisory lock outside a transaction: give each migration its own.
      // SQLite's lock (BEGIN IMMEDIATE) already is the transaction.
      const ownTx = tx.driver === 'postgres';
      if (ownTx) await tx.run('BEGIN');
      try {
        for (const statement of m.statements) await tx.run(statement);
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          m.version,
          m.name,
          now,
        ]);
        if (ownTx) await tx.run('COMMIT');
      } catch (err) {
        if (ownTx) await tx.run('ROLLBACK');
        throw err;
      }
      done.push(m.version);
    }
    return done;
  });
}
