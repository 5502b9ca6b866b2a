// A hung PostgreSQL (issue #14 item 5): the proxy accepts connections and answers nothing. Every
// query has a deadline, so paying keys keep working from the stale cache, readiness says
// "degraded" (not 503 on every replica), and SIGTERM exits within the grace period with the
// pending usage kept in the local journal.
import { afterAll, expect, it } from 'vitest';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { proxiedPostgres } from '../helpers/tcp-proxy.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const servers: TestServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  for (const c of cleanups) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeNeeding('postgres')('database hung', () => {
  it('keeps keys working from the cache and exits within the grace period', async () => {
    const { url, direct, proxy } = await proxiedPostgres(cleanups);
    const s = await startServer({
      DATABASE_URL: url,
      FLUSH_MS: '300',
      HEARTBEAT_MS: '300',
      KEY_CACHE_MS: '200',
      DB_QUERY_TIMEOUT_MS: '1000',
      SHUTDOWN_GRACE_MS: '4000',
    });
    servers.push(s);
    const created = await keysTool(
      { ...s.env, DATABASE_URL: direct },
      'create',
      '--tier',
      'institutional',
      '--owner',
      'Hang',
      '--json',
    );
    const key = JSON.parse(created.stdout.slice(created.stdout.indexOf('{')));
    const hit = () =>
      raw(`${s.url}/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001`, {
        noKey: true,
        headers: { 'x-api-key': key.key },
      });
    expect((await hit()).status).toBe(200);

    proxy.pause();
    // Over several key-cache periods: every answer is a 200, none waits beyond the deadline.
    const statuses: number[] = [];
    let slowest = 0;
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      const t = Date.now();
      statuses.push((await hit()).status);
      slowest = Math.max(slowest, Date.now() - t);
      await sleep(50);
    }
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
    expect(slowest).toBeLessThan(3000);
    const ready = await raw(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body.toString())).toMatchObject({
      status: 'degraded',
      database: { status: 'unreachable' },
    });
    const t = Date.now();
    const t0 = Date.now();
    const healthz = await raw(`${s.url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);

    const exited = s.stop('SIGTERM');
    expect(await exited).toBe(0);
    // SHUTDOWN_GRACE_MS, plus process exit; before the fix it did not exit at all.
    expect(Date.now() - t).toBeLessThan(4000 + 2000);
    expect(s.output()).toContain('pending usage kept in the local journal');
  });
});
