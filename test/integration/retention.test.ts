// Retention at start, in small steps (issue #14 item 10): a database with weeks of expired
// history is pruned within seconds of start (it used to wait an hour of uptime, then block the
// event loop for a second), and /healthz stays prompt meanwhile.
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { sqliteDir } from '../helpers/databases.ts';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('retention', () => {
  it('prunes expired history at start, in steps, without stalling the server', async () => {
    const dir = sqliteDir();
    const store = await openStore({ DATA_DIR: dir });
    const nowMinute = Math.floor(Date.now() / 60_000);
    // Three days of history that expired (older than 35 days), and one recent day.
    const old = nowMinute - 38 * 1440;
    for (let day = 0; day < 3; day++) {
      const rows = Array.from({ length: 1440 }, (_, m) => ({
        minute: old + day * 1440 + m,
        endpoint: '/v1/registry/assets',
        bucket: 5,
        requests: 1,
      }));
      await store.addLatency(rows);
    }
    await store.addLatency([
      { minute: nowMinute - 60, endpoint: '/v1/registry/assets', bucket: 5, requests: 1 },
    ]);
    await store.heartbeat(
      { id: 'gone', startedAt: old * 60_000, host: 'h', pid: 1 },
      old * 60_000,
      (old + 60) * 60_000,
    );
    await store.db.close();

    const s = await startServer({ DATA_DIR: dir });
    servers.push(s);
    const db = new DatabaseSync(path.join(dir, 'tai.sqlite'), { readOnly: true });
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    let slowest = 0;
    let left = -1;
    for (let i = 0; i < 100; i++) {
      const t = Date.now();
      expect((await raw(`${s.url}/healthz`)).status).toBe(200);
      slowest = Math.max(slowest, Date.now() - t);
      left = count(
        `SELECT COUNT(*) AS n FROM latency_buckets WHERE minute < ${nowMinute - 35 * 1440}`,
      );
      if (left === 0) break;
      await sleep(100);
    }
    expect(left).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM latency_buckets')).toBeGreaterThanOrEqual(1);
    expect(count("SELECT COUNT(*) AS n FROM uptime_intervals WHERE instance_id = 'gone'")).toBe(0);
    expect(slowest).toBeLessThan(1000);
    db.close();
  });
});
