// A transaction that reads and then writes must not fail because another process wrote to the
// file in between. Under WAL a deferred BEGIN starts as a read, and its first write then fails at
// once with SQLITE_BUSY (busy_timeout does not apply) when another connection committed since:
// `keys revoke` (read the key, then update it) failed this way in CI while the server flushed
// usage every 200 ms. Every transaction of ours writes, so each takes the write lock as it begins.
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/store/sqlite.ts';
import { sqliteDir } from '../helpers/databases.ts';

const file = path.join(sqliteDir(), 'tx.sqlite');
const db = openSqlite(file);
// Another process's connection, as the server's is to the keys tool.
const other = new DatabaseSync(file);
afterAll(async () => {
  other.close();
  await db.close();
});

describe('SQLite transactions', () => {
  it('read, then write, with another connection writing in between', async () => {
    await db.run('PRAGMA journal_mode = WAL');
    await db.run('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, n INTEGER)');
    await db.run('INSERT INTO t (id, n) VALUES (1, 0)');
    let otherWrote: boolean | undefined;
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx.all<{ n: number }>('SELECT n FROM t WHERE id = 1');
      try {
        other.exec('INSERT INTO t (id, n) VALUES (2, 0)');
        otherWrote = true;
      } catch {
        otherWrote = false; // it waits for our lock (here: refused at once, no busy timeout)
      }
      return tx.run('UPDATE t SET n = ? WHERE id = 1', [row!.n + 1]);
    });
    expect(updated).toBe(1);
    expect(otherWrote).toBe(false);
    expect(await db.all('SELECT n FROM t WHERE id = 1')).toEqual([{ n: 1 }]);
  });
});
