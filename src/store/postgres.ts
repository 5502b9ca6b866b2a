// PostgreSQL through `pg`, when DATABASE_URL points at one.
import pg from 'pg';
import type { Db, Param } from './db.ts';

/** `?` placeholders → `$1, $2, …` (our SQL never contains a literal question mark). */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

// BIGINT and COUNT() come back as strings by default; every count of ours fits a double.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

const MIGRATION_LOCK = 727_274_001;

export function openPostgres(
  url: string,
  options: { max?: number; connectTimeoutMs?: number } = {},
): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 5,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    types: types as pg.CustomTypesConfig,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const over = (q: pg.Pool | pg.PoolClient): Db => ({
    driver: 'postgres',
    async run(sql, params = []) {
      return (await q.query(toPgPlaceholders(sql), params as Param[])).rowCount ?? 0;
    },
    async all<T>(sql: string, params: readonly Param[] = []) {
      return (await q.query(toPgPlaceholders(sql), params as Param[])).rows as T[];
    },
    transaction: (fn) =>
      withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const result = await fn(over(client));
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    withMigrationLock: (fn) =>
      withClient(async (client) => {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          return await fn(over(client));
        } finally {
          await client
            .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
            .catch(() => undefined);
        }
      }),
    close: () => pool.end(),
  });
  // A checked-out client has no 'error' listener of the pool's, and pg emits 'error' on the
  // client when its connection drops (even mid-query, after rejecting the query): without a
  // listener of our own, a database outage during a transaction would crash the process.
  async function withClient<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let lost: Error | undefined;
    const onLost = (err: Error) => (lost ??= err);
    client.on('error', onLost);
    try {
      return await fn(client);
    } finally {
      client.off('error', onLost);
      // A lost connection is destroyed rather than returned to the pool.
      client.release(lost);
    }
  }
  return over(pool);
}
