// The embedded default: a SQLite file through Node's built-in node:sqlite, on a worker thread of
// its own (sqlite-worker.ts) so that a lock held by another process never blocks the event loop.
// Every call has a deadline, as with PostgreSQL: a caller waiting on a locked file gives up and
// retries later (flushes keep their counts; key checks fall back to the stale-key grace).
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db, Param } from './db.ts';
import type { SqliteRequest } from './sqlite-worker.ts';

const MIGRATION_WAIT_MS = 15_000;
/**
 * Every transaction of ours writes, so each takes the write lock as it begins (waiting up to the
 * busy timeout). A deferred BEGIN starts as a read under WAL, and its first write then fails at
 * once with SQLITE_BUSY, busy timeout or not, if another process committed since its read
 * (test/store/sqlite-transactions.test.ts).
 */
const BEGIN_WRITE = 'BEGIN IMMEDIATE';

/** Serialises access: one connection must not interleave transactions. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/** One queue per database file in this process: two connections must not hold competing transactions. */
const queues = new Map<string, Queue>();

export interface SqliteOptions {
  /** How long a statement may wait for another process's lock (on the worker thread). */
  busyTimeoutMs?: number;
  /** How long a caller waits for any answer before giving up. */
  queryTimeoutMs?: number;
}

export class SqliteError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The worker thread that holds the connection, and the one way to ask it: `call` posts a request
 * and waits for its answer until a deadline.
 */
function startWorker(file: string, busyTimeoutMs: number, queryTimeoutMs: number) {
  const worker = new Worker(new URL('./sqlite-worker.ts', import.meta.url), {
    workerData: {
      file: file === ':memory:' ? file : path.resolve(file),
      busyTimeoutMs,
    },
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  let closed = false;
  // The worker keeps the process alive only while a call waits for it.
  worker.unref();
  worker.on(
    'message',
    (m: {
      id: number;
      ok: boolean;
      result?: unknown;
      error?: { message: string; code?: string };
    }) => {
      const w = waiting.get(m.id);
      if (!w) return; // its caller gave up (deadline)
      waiting.delete(m.id);
      if (waiting.size === 0) worker.unref();
      if (m.ok) w.resolve(m.result);
      else w.reject(new SqliteError(m.error!.message, m.error!.code));
    },
  );
  // A worker that dies (it should not) fails what waits on it; later calls fail at once.
  const fail = (err: Error) => {
    closed = true;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new SqliteError('the SQLite worker stopped')));

  function call(
    op: SqliteRequest['op'],
    sql?: string,
    params?: readonly Param[],
    deadlineMs = queryTimeoutMs,
  ): Promise<unknown> {
    if (closed) return Promise.reject(new SqliteError('the SQLite database is closed'));
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        if (waiting.size === 0) worker.unref();
        reject(
          new SqliteError(
            `the SQLite database did not answer within ${deadlineMs} ms`,
            'ETIMEDOUT',
          ),
        );
      }, deadlineMs);
      waiting.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      worker.ref();
      worker.postMessage({ id, op, sql, params: params as Param[] | undefined });
    });
  }

  async function close() {
    if (closed) return;
    await call('close').catch(() => undefined);
    closed = true;
    await worker.terminate();
  }
  return { call, close };
}

export function openSqlite(file: string, options: SqliteOptions = {}): Db {
  const queryTimeoutMs = options.queryTimeoutMs ?? 2000;
  const busyTimeoutMs = options.busyTimeoutMs ?? Math.min(1000, Math.floor(queryTimeoutMs / 2));
  const { call, close } = startWorker(file, busyTimeoutMs, queryTimeoutMs);

  const key = file === ':memory:' ? `memory:${Math.random()}` : path.resolve(file);
  const queue = queues.get(key) ?? new Queue();
  queues.set(key, queue);
  const over = (deadlineMs: number): Db => ({
    driver: 'sqlite',
    run: async (sql, params = []) => Number(await call('run', sql, params, deadlineMs)),
    all: async <T>(sql: string, params: readonly Param[] = []) =>
      (await call('all', sql, params, deadlineMs)) as T[],
    transaction: (fn) => inTransaction(BEGIN_WRITE, fn),
    withMigrationLock: (fn) => migrationLock(fn),
    close: () => close(),
  });
  async function inTransaction<T>(
    begin: string,
    fn: (tx: Db) => Promise<T>,
    deadlineMs = queryTimeoutMs,
  ): Promise<T> {
    await call('exec', begin, [], deadlineMs);
    try {
      const result = await fn(over(deadlineMs));
      await call('exec', 'COMMIT', [], deadlineMs);
      return result;
    } catch (err) {
      // Runs after whatever the worker is still doing (messages are handled in order).
      await call('rollback').catch(() => undefined);
      throw err;
    }
  }
  /** Waiting for another process's migrations, and migrating, may take longer than one query. */
  async function migrationLock<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    await call('exec', `PRAGMA busy_timeout = ${MIGRATION_WAIT_MS}`);
    try {
      return await inTransaction(BEGIN_WRITE, fn, MIGRATION_WAIT_MS + 5000);
    } finally {
      await call('exec', `PRAGMA busy_timeout = ${busyTimeoutMs}`).catch(() => undefined);
    }
  }
  const direct = over(queryTimeoutMs);
  return {
    driver: 'sqlite',
    run: (sql, params) => queue.run(() => direct.run(sql, params)),
    all: <T>(sql: string, params?: readonly Param[]) => queue.run(() => direct.all<T>(sql, params)),
    transaction: (fn) => queue.run(() => inTransaction(BEGIN_WRITE, fn)),
    withMigrationLock: (fn) => queue.run(() => migrationLock(fn)),
    close: () => queue.run(() => close()),
  };
}
