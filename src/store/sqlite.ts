// The embedded default: a SQLite file through Node's built-in node:sqlite.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Db, Param } from './db.ts';

/** Serialises access: node:sqlite is synchronous and one connection must not interleave transactions. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * One queue per database file in this process: node:sqlite waits for locks synchronously
 * (busy_timeout), so two connections of one process must never hold competing transactions.
 */
const queues = new Map<string, Queue>();

export function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  // WAL lets readers proceed during writes; busy_timeout makes concurrent processes wait, not fail.
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;',
  );
  const key =
    file === ':memory:' ? Symbol('memory').toString() + Math.random() : path.resolve(file);
  const queue = queues.get(key) ?? new Queue();
  queues.set(key, queue);
  let closed = false;
  const check = () => {
    if (closed) throw new Error('the SQLite database is closed');
  };
  const direct: Db = {
    driver: 'sqlite',
    async run(sql, params = []) {
      check();
      return Number(db.prepare(sql).run(...(params as Param[])).changes);
    },
    async all<T>(sql: string, params: readonly Param[] = []) {
      check();
      return db.prepare(sql).all(...(params as Param[])) as T[];
    },
    transaction: (fn) => inTransaction('BEGIN', fn),
    withMigrationLock: (fn) => inTransaction('BEGIN IMMEDIATE', fn),
    async close() {
      closed = true;
      db.close();
    },
  };
  async function inTransaction<T>(begin: string, fn: (tx: Db) => Promise<T>): Promise<T> {
    check();
    db.exec(begin);
    try {
      const result = await fn(direct);
      db.exec('COMMIT');
      return result;
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  }
  return {
    driver: 'sqlite',
    run: (sql, params) => queue.run(() => direct.run(sql, params)),
    all: <T>(sql: string, params?: readonly Param[]) => queue.run(() => direct.all<T>(sql, params)),
    transaction: (fn) => queue.run(() => inTransaction('BEGIN', fn)),
    withMigrationLock: (fn) => queue.run(() => inTransaction('BEGIN IMMEDIATE', fn)),
    close: () => queue.run(() => direct.close()),
  };
}
