// Two server processes on loopback sharing one PostgreSQL: the status adds both up (operators see
// both instances on /metrics), and a key revoked through the keys tool is refused by both within
// seconds.
import { afterAll, expect, it } from 'vitest';
import { postgresSchema } from '../helpers/databases.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const servers: TestServer[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const d of drops) await d();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/* eslint-disable @typescript-eslint/no-explicit-any */

describeNeeding('postgres')('two instances on one PostgreSQL', () => {
  it('report two instances alive, summed traffic and latency, and share revocations', async () => {
    const schema = await postgresSchema();
    drops.push(schema.drop);
    const env = {
      DATABASE_URL: schema.url,
      FLUSH_MS: '200',
      HEARTBEAT_MS: '200',
      STATUS_CACHE_MS: '100',
      KEY_CACHE_MS: '500',
    };
    // Started together: both run the migrations; the advisory lock lets exactly one apply them.
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(a, b);
    const key = JSON.parse(
      (
        await keysTool(
          a.env,
          'create',
          '--tier',
          'enterprise',
          '--owner',
          'Two instances',
          '--json',
        )
      ).stdout,
    );
    const headers = { 'x-api-key': key.key };
    for (let i = 0; i < 6; i++)
      expect((await raw(`${a.url}/v1/registry/assets`, { noKey: true, headers })).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await raw(`${b.url}/v1/registry/assets`, { noKey: true, headers })).status).toBe(200);
    // Flushes and heartbeats run every 200 ms; on a loaded machine they can take longer, so the
    // status is polled (up to 10 s) until both instances show the flushed traffic.
    const statusOf = async (url: string) =>
      JSON.parse(
        (await raw(`${url}/v1/system/status`, { noKey: true, headers })).body.toString(),
      ) as any;
    const alive = async (url: string) =>
      Number(
        /^tai_instances_alive (\d+)$/m.exec((await raw(`${url}/metrics`)).body.toString())?.[1],
      );
    const settled = (s: any) =>
      (s.data.latency.find((l: any) => l.endpoint === '/v1/registry/assets')?.windows['5m'].count ??
        0) >= 10;
    let fromA: any;
    let fromB: any;
    for (let i = 0; i < 50; i++) {
      await sleep(200);
      [fromA, fromB] = await Promise.all([statusOf(a.url), statusOf(b.url)]);
      if (settled(fromA) && settled(fromB) && (await alive(a.url)) === 2) break;
    }
    for (const s of [fromA, fromB]) {
      expect(s.data.status).toBe('ok');
      const assets = s.data.latency.find((l: any) => l.endpoint === '/v1/registry/assets');
      expect(assets.windows['5m'].count).toBeGreaterThanOrEqual(10);
    }
    expect(await alive(a.url)).toBe(2);
    expect(await alive(b.url)).toBe(2);
    const usage = JSON.parse((await keysTool(a.env, 'usage', '--key', key.id, '--json')).stdout);
    expect(usage.find((u: any) => u.endpoint === '/v1/registry/assets').requests).toBe(10);

    expect((await keysTool(b.env, 'revoke', key.id)).code).toBe(0);
    const refusedBy = async (s: TestServer) => {
      for (let i = 0; i < 50; i++) {
        if ((await raw(`${s.url}/v1/registry/assets`, { noKey: true, headers })).status === 401)
          return true;
        await sleep(100);
      }
      return false;
    };
    expect(await refusedBy(a)).toBe(true);
    expect(await refusedBy(b)).toBe(true);
  });
});
