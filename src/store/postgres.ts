// PostgreSQL through `pg`, when DATABASE_URL points at one.
//
// Every query has a deadline. A database that refuses connections fails fast by itself; one that
// accepts and never answers (hung server, paused VM, black-holed network) would otherwise keep a
// query, and whatever awaits it (key refreshes, flushes, shutdown), waiting forever. So: the
// server cancels statements after `queryTimeoutMs` (statement_timeout, e.g. behind a row lock),
// the client gives up shortly after and destroys that connection (a late answer cannot be
// matched to a later query), connecting is bounded, and pool connections use TCP keepalive so a
// silently dead peer is noticed.
import pg from 'pg';
import type { Db, Param } from './db.ts';
import { within, withDeadline } from '../lib/deadline.ts';

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
const MIGRATION_WAIT_MS = 30_000;

export interface PostgresOptions {
  max?: number;
  connectTimeoutMs?: number;
  /** Server-side statement timeout; the client-side deadline is this plus a margin. */
  queryTimeoutMs?: number;
}

export class QueryTimeoutError extends Error {}

// A checked-out client has no 'error' listener of the pool's, and pg emits 'error' on the
// client when its connection drops (even mid-query, after rejecting the query): without a
// listener of our own, a database outage during a transaction would crash the process.
async function withClient<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLost = (err: Error) => (lost ??= err);
  client.on('error', onLost);
  try {
    return await fn(client);
  } catch (err) {
    if (err instanceof QueryTimeoutError) lost ??= err;
    throw err;
  } finally {
    client.off('error', onLost);
    // A lost connection is destroyed rather than returned to the pool.
    client.release(lost);
  }
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const queryTimeoutMs = options.queryTimeoutMs ?? 2000;
  const clientDeadlineMs = queryTimeoutMs + 500;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 5,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    statement_timeout: queryTimeoutMs,
    types: types as pg.CustomTypesConfig,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);

  /** One query on a checked-out client, within the deadline; on timeout the connection is cut. */
  async function query(
    client: pg.PoolClient,
    sql: string,
    params: readonly Param[],
    deadlineMs = clientDeadlineMs,
  ) {
    return withDeadline(client.query(toPgPlaceholders(sql), params as Param[]), deadlineMs, () => {
      // Destroying the socket fails the query inside pg too, and marks the client lost.
      (
        client as unknown as { connection?: { stream?: { destroy(): void } } }
      ).connection?.stream?.destroy();
      throw new QueryTimeoutError(`the database did not answer within ${deadlineMs} ms`);
    });
  }

  const over = (c: pg.PoolClient | null, deadlineMs = clientDeadlineMs): Db => {
    // Outside a transaction each statement checks out a client of its own.
    const exec = (sql: string, params: readonly Param[]) =>
      c
        ? query(c, sql, params, deadlineMs)
        : withClient(pool, (client) => query(client, sql, params));
    return {
      driver: 'postgres',
      async run(sql, params = []) {
        return (await exec(sql, params)).rowCount ?? 0;
      },
      async all<T>(sql: string, params: readonly Param[] = []) {
        return (await exec(sql, params)).rows as T[];
      },
      transaction: (fn) =>
        withClient(pool, async (client) => {
          await query(client, 'BEGIN', []);
          try {
            const result = await fn(over(client));
            await query(client, 'COMMIT', []);
            return result;
          } catch (err) {
            await query(client, 'ROLLBACK', []).catch(() => undefined);
            throw err;
          }
        }),
      withMigrationLock: (fn) =>
        withClient(pool, async (client) => {
          // Waiting for another instance's migrations, and a migration rebuilding a table, may
          // take longer than one query: this session gets a longer deadline.
          const wait = MIGRATION_WAIT_MS + 500;
          await query(client, `SET statement_timeout = ${MIGRATION_WAIT_MS}`, []);
          await query(client, 'SELECT pg_advisory_lock(?)', [MIGRATION_LOCK], wait);
          try {
            return await fn(over(client, wait));
          } finally {
            await query(client, 'SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK]).catch(
              () => undefined,
            );
            await query(client, `SET statement_timeout = ${queryTimeoutMs}`, []).catch(
              () => undefined,
            );
          }
        }),
      async close() {
        // Bounded: a hung server must not hold the process at exit.
        await within(pool.end(), clientDeadlineMs);
      },
    };
  };
  return over(null);
}
