// The SQLite connection's own thread. node:sqlite is synchronous and waits for another
// process's write lock by sleeping (busy_timeout): on the main thread that froze every request,
// /healthz included. Here only this thread waits; the main thread keeps serving from memory.
import { parentPort, workerData } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

export interface SqliteRequest {
  id: number;
  op: 'exec' | 'run' | 'all' | 'rollback' | 'close';
  sql?: string;
  params?: SQLInputValue[];
}

const { file, busyTimeoutMs } = workerData as { file: string; busyTimeoutMs: number };
let db: DatabaseSync | null = null;
let openError: Error | null = null;
try {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  db = new DatabaseSync(file);
  // WAL lets readers proceed during writes; a short busy_timeout makes a locked write fail soon
  // (the caller retries later) instead of holding this thread and the queue behind it.
  db.exec(
    `PRAGMA busy_timeout = ${busyTimeoutMs}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;`,
  );
} catch (err) {
  openError = err as Error;
}

/**
 * Statements prepared once per SQL text: the service sends the same few dozen (and a key lookup
 * per batch size), and preparing one costs more than running it. Bounded; emptied on close.
 */
const statements = new Map<string, StatementSync>();
function prepared(database: DatabaseSync, sql: string): StatementSync {
  let statement = statements.get(sql);
  if (statement === undefined) {
    if (statements.size >= 256) statements.clear();
    statements.set(sql, (statement = database.prepare(sql)));
  }
  return statement;
}

function handle(req: SqliteRequest): unknown {
  if (req.op === 'close') {
    statements.clear();
    db?.close();
    db = null;
    return null;
  }
  if (!db) throw openError ?? new Error('the SQLite database is closed');
  switch (req.op) {
    case 'exec':
      db.exec(req.sql!);
      return null;
    case 'run':
      return Number(prepared(db, req.sql!).run(...(req.params ?? [])).changes);
    case 'all':
      return prepared(db, req.sql!).all(...(req.params ?? []));
    case 'rollback':
      if (db.isTransaction) db.exec('ROLLBACK');
      return null;
  }
}

parentPort!.on('message', (req: SqliteRequest) => {
  try {
    parentPort!.postMessage({ id: req.id, ok: true, result: handle(req) });
  } catch (err) {
    const e = err as Error & { code?: string; errcode?: number };
    parentPort!.postMessage({
      id: req.id,
      ok: false,
      error: { message: e.message, code: e.code, errcode: e.errcode },
    });
  }
});
