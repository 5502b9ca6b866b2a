// Quotas shared on Redis (README "Shared quotas on Redis"): two real instances on the machine's
// Redis enforce one quota, not two, for every tier and for the failed-auth block; with Redis
// unreachable each instance keeps answering at REDIS_FALLBACK_SHARE of the quota, says so in
// /readyz and /metrics, and goes back to the shared count when Redis answers again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { generateKey } from '../../src/access/keys.ts';

export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];
if (process.env['CI'] && !TEST_REDIS_URL)
  throw new Error('TEST_REDIS_URL must be set in CI: the Redis quotas are tested for real.');

const servers: TestServer[] = [];
const proxies: TcpProxy[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const p of proxies) await p.close();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Log lines are written in batches (at least every second): poll for one. */
async function logged(s: TestServer, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 50 && !pattern.test(s.output()); i++) await sleep(200);
  return s.output();
}

const get = (url: string, key: string) =>
  raw(`${url}/v1/market/stablecoins`, { noKey: true, headers: { 'x-api-key': key } });
const readyz = async (url: string) => JSON.parse((await raw(`${url}/readyz`)).body.toString());
const metric = async (url: string, name: string) =>
  Number(
    new RegExp(`^${name} (\\S+)$`, 'm').exec((await raw(`${url}/metrics`)).body.toString())?.[1],
  );

async function twoInstances(env: Record<string, string>) {
  const shared = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-redis-')),
    REDIS_KEY_PREFIX: `tai-test-${randomUUID().slice(0, 8)}`,
    ...env,
  };
  const [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
  servers.push(a, b);
  return [a, b] as const;
}

describe.skipIf(!TEST_REDIS_URL)('quotas shared on Redis', () => {
  it('a client alternating between two instances gets exactly one quota, per tier', async () => {
    const [a, b] = await twoInstances({
      REDIS_URL: TEST_REDIS_URL!,
      RATE_LIMIT_DEMO: '6/60',
      RATE_LIMIT_INSTITUTIONAL: '5/60',
    });
    for (const s of [a, b])
      expect((await readyz(s.url)).quotas).toEqual({ backend: 'redis', status: 'ok' });

    const demo = [];
    for (let i = 0; i < 10; i++) demo.push(await get((i % 2 ? b : a).url, 'DEMO_KEY'));
    expect(demo.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    // One count: the remaining requests go down across both instances.
    expect(
      demo.slice(0, 6).map((r) => /r=(\d+)/.exec(String(r.headers['ratelimit']))?.[1]),
    ).toEqual(['5', '4', '3', '2', '1', '0']);
    expect(demo[6]!.headers['ratelimit-policy']).toBe('"demo";q=6;w=60');
    const retry = Number(demo[6]!.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(JSON.parse(demo[9]!.body.toString()).code).toBe('rate_limited');

    const created = await keysTool(
      a.env,
      'create',
      '--tier',
      'institutional',
      '--owner',
      'Redis',
      '--json',
    );
    const key = JSON.parse(created.stdout).key as string;
    const keyed = [];
    for (let i = 0; i < 8; i++) keyed.push((await get((i % 2 ? a : b).url, key)).status);
    expect(keyed).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    // Refusals by reason, and the Redis backend, on /metrics.
    const text = (await raw(`${b.url}/metrics`)).body.toString();
    expect(text).toMatch(/^tai_http_problems_total\{status="429",code="rate_limited"\} [1-9]/m);
    expect(text).toMatch(/^tai_quota_backend_info\{backend="redis"\} 1$/m);
    expect(text).toMatch(/^tai_quota_backend_up 1$/m);
  });

  it('shares the failed-auth block between instances', async () => {
    const [a, b] = await twoInstances({ REDIS_URL: TEST_REDIS_URL!, FAILED_AUTH_LIMIT: '3/60' });
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await get((i % 2 ? b : a).url, generateKey().key)).status);
    // Three invalid keys are answered 401; past the limit (counted on both) the address is blocked.
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const blocked = await get(a.url, generateKey().key);
    expect(JSON.parse(blocked.body.toString()).code).toBe('too_many_failed_attempts');
    // DEMO_KEY (a known key) still works from the blocked address.
    expect((await get(b.url, 'DEMO_KEY')).status).toBe(200);
  });

  it('keeps answering at the fallback share while Redis is unreachable, then shares again', async () => {
    const redis = new URL(TEST_REDIS_URL!);
    const proxy = await tcpProxy(redis.hostname, Number(redis.port || 6379));
    proxies.push(proxy);
    const via = `redis://${redis.hostname}:${proxy.port}`;
    const [a, b] = await twoInstances({
      REDIS_URL: via,
      RATE_LIMIT_DEMO: '8/60',
      REDIS_FALLBACK_SHARE: '0.5',
      REDIS_TIMEOUT_MS: '200',
    });
    expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);

    proxy.cut();
    // The first request after the cut may be the one that finds out; every one is answered.
    const during = [];
    for (let i = 0; i < 12; i++) during.push(await get((i % 2 ? b : a).url, 'DEMO_KEY'));
    expect(during.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    // Each instance allows its share (4 of 8) locally: 8 of the 12 pass, whatever Redis counted.
    expect(during.filter((r) => r.status === 200)).toHaveLength(8);
    for (const s of [a, b]) {
      const q = (await readyz(s.url)).quotas;
      expect(q).toMatchObject({ backend: 'redis', status: 'fallback', fallback_share: 0.5 });
      expect(await metric(s.url, 'tai_quota_backend_up')).toBe(0);
      expect(await metric(s.url, 'tai_quota_fallback_decisions_total')).toBeGreaterThanOrEqual(6);
    }
    expect(await logged(a, /Redis unreachable/)).toMatch(
      /Redis unreachable: quotas counted per instance/,
    );

    proxy.restore();
    // The instances ping Redis every second; back to the shared count within a few seconds.
    for (let i = 0; i < 60; i++) {
      const states = await Promise.all(
        [a, b].map(async (s) => (await readyz(s.url)).quotas.status),
      );
      if (states.every((st) => st === 'ok')) break;
      await sleep(250);
    }
    for (const s of [a, b]) expect((await readyz(s.url)).quotas.status).toBe('ok');
    // Redis counted 1 before the cut: 7 more pass, shared again.
    const after = [];
    for (let i = 0; i < 9; i++) after.push((await get((i % 2 ? b : a).url, 'DEMO_KEY')).status);
    expect(after.filter((st) => st === 200)).toHaveLength(7);
    expect(await logged(a, /Redis reachable again/)).toMatch(
      /Redis reachable again: quotas shared/,
    );
  });

  it('does not wait on a Redis that accepts and never answers: one deadline, then the fallback', async () => {
    const redis = new URL(TEST_REDIS_URL!);
    const proxy = await tcpProxy(redis.hostname, Number(redis.port || 6379));
    proxies.push(proxy);
    const a = await startServer({
      REDIS_URL: `redis://${redis.hostname}:${proxy.port}`,
      REDIS_KEY_PREFIX: `tai-test-${randomUUID().slice(0, 8)}`,
      REDIS_TIMEOUT_MS: '300',
    });
    servers.push(a);
    expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);
    proxy.pause();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);
      times.push(Date.now() - t0);
    }
    // The first request meets the deadline; the others go straight to the fallback. (Bounds
    // generous for slow CI machines: a hang would be seconds.)
    expect(times.slice(1).every((ms) => ms < 250)).toBe(true);
    expect(times[0]).toBeLessThan(3000);
    expect((await readyz(a.url)).quotas.status).toBe('fallback');
    proxy.restore();
    for (let i = 0; i < 60 && (await readyz(a.url)).quotas.status !== 'ok'; i++) await sleep(250);
    expect((await readyz(a.url)).quotas.status).toBe('ok');
  });

  it('starts on the fallback when Redis is down at start, and refuses a bad REDIS_URL', async () => {
    const proxy = await tcpProxy('127.0.0.1', 1);
    proxies.push(proxy);
    proxy.cut();
    const s = await startServer({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: `tai-test-${randomUUID().slice(0, 8)}`,
    });
    servers.push(s);
    expect((await get(s.url, 'DEMO_KEY')).status).toBe(200);
    const r = await raw(`${s.url}/readyz`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.toString()).quotas.status).toBe('fallback');
    await expect(startServer({ REDIS_URL: 'http://localhost:6379' })).rejects.toThrow(
      /REDIS_URL="http:\/\/localhost:6379": must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});
