// An external SQLite write lock (issue #14 item 8): another process holds the database file's
// write lock for 10 s. The database runs on a worker thread with short busy timeouts and
// deadlines, so the event loop keeps answering: /healthz and data from memory stay prompt, and
// the counts written meanwhile arrive once the lock is gone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A second process holding the write lock of `file` for `ms`. */
function holdWriteLock(file: string, ms: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const { DatabaseSync } = require('node:sqlite');
       const db = new DatabaseSync(process.argv[1]);
       // The server writes its heartbeat and counts every 200 ms: wait for such a write to end
       // rather than fail on it (busy), so the lock is taken whatever the machine's speed.
       db.exec('PRAGMA busy_timeout = 10000');
       db.exec('BEGIN EXCLUSIVE');
       db.exec("UPDATE instances SET last_seen = last_seen");
       console.log('locked');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`,
      file,
      String(ms),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A child that exits before it holds the lock fails the test at once, not at its timeout.
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    void done.then(() => reject(new Error('the lock holder exited before taking the lock')));
  });
  return { locked, done };
}

describe('SQLite locked by another process', () => {
  it('keeps /healthz and data answering promptly while the lock is held', async () => {
    const s = await startServer({ FLUSH_MS: '200', HEARTBEAT_MS: '200' });
    servers.push(s);
    expect((await raw(`${s.url}/v1/registry/assets`)).status).toBe(200);
    const lock = holdWriteLock(path.join(s.env['DATA_DIR']!, 'tai.sqlite'), 10_000);
    await lock.locked;
    let slowest = 0;
    let answered = 0;
    const until = Date.now() + 9000;
    while (Date.now() < until) {
      for (const url of ['/healthz', '/v1/registry/assets']) {
        const t = Date.now();
        const res = await raw(`${s.url}${url}`, { fresh: true });
        slowest = Math.max(slowest, Date.now() - t);
        expect(res.status).toBe(200);
        answered++;
      }
      await sleep(100);
    }
    // Before the fix one /healthz took 10–17 s (synchronous busy_timeout on the event loop).
    expect(slowest).toBeLessThan(2000);
    expect(answered).toBeGreaterThan(20);
    await lock.done;
    // The lock is gone: the counts kept meanwhile reach the database and readiness recovers.
    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i++) {
      await sleep(100);
      ready = (await raw(`${s.url}/readyz`)).status;
    }
    expect(ready).toBe(200);
    expect(await s.stop()).toBe(0);
  });
});
