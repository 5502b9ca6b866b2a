// Quotas shared on Redis (docs/production.md "Shared quotas on Redis"): two real instances on the machine's
// Redis enforce one quota, not two, for every tier and for the failed-auth block; with Redis
// unreachable each instance keeps answering at REDIS_FALLBACK_SHARE of the quota, says so in
// /readyz and /metrics, and goes back to the shared count when Redis answers again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { generateKey } from '../../src/access/keys.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

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

/** A new institutional key in the instances' shared database. */
async function institutionalKey(s: TestServer): Promise<string> {
  const created = await keysTool(
    s.env,
    'create',
    '--tier',
    'institutional',
    '--owner',
    'Redis',
    '--json',
  );
  return JSON.parse(created.stdout).key as string;
}

/** The Redis hash of DEMO_KEY's window for this machine's address (src/access/quota-lease.ts). */
const demoWindow = (prefix: string) => `${prefix}:quota-lease:demo:60:127.0.0.1`;

async function twoInstances(env: Record<string, string>) {
  const shared = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-redis-')),
    REDIS_KEY_PREFIX: `tai-test-${randomUUID().slice(0, 8)}`,
    // Leases go back when idle only where a test says so: counts never depend on its timing.
    REDIS_LEASE_IDLE_MS: '600000',
    ...env,
  };
  const [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
  servers.push(a, b);
  return [a, b] as const;
}

describeNeeding('redis')('quotas shared on Redis', () => {
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

    const key = await institutionalKey(a);
    const keyed = [];
    for (let i = 0; i < 8; i++) keyed.push((await get((i % 2 ? a : b).url, key)).status);
    expect(keyed).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    // Refusals by reason, and the Redis backend, on /metrics.
    const text = (await raw(`${b.url}/metrics`)).body.toString();
    expect(text).toMatch(/^tai_http_problems_total\{status="429",code="rate_limited"\} [1-9]/m);
    expect(text).toMatch(/^tai_quota_backend_info\{backend="redis"\} 1$/m);
    expect(text).toMatch(/^tai_quota_backend_up 1$/m);
  });

  it('leases: 40 calls alternating between two instances on a 20-per-minute key, exactly the first 20 pass', async () => {
    const [a, b] = await twoInstances({
      REDIS_URL: TEST_REDIS_URL!,
      RATE_LIMIT_INSTITUTIONAL: '20/60',
    });
    const key = await institutionalKey(a);
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await get((i % 2 ? b : a).url, key)).status);
    expect(statuses).toEqual([...Array<number>(20).fill(200), ...Array<number>(20).fill(429)]);
    // Leases of 5 and 3 at first (a quarter of what is left), spent without a round trip.
    for (const s of [a, b]) {
      expect(await metric(s.url, 'tai_quota_lease_decisions_total')).toBeGreaterThanOrEqual(2);
      expect(await metric(s.url, 'tai_quota_lease_tokens_held')).toBe(0);
    }
  });

  it('leases: an instance gives its unspent tokens back when it stops', async () => {
    const prefix = `tai-test-${randomUUID().slice(0, 8)}`;
    const [a, b] = await twoInstances({
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_DEMO: '1000/60',
      REDIS_LEASE_MAX: '100',
    });
    const redis = new Redis(TEST_REDIS_URL!);
    try {
      const window = demoWindow(prefix);
      expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);
      // One lease of 100 (the largest; a quarter of 1,000 is more), one token spent.
      expect(await redis.hget(window, 'leased')).toBe('100');
      expect(await metric(a.url, 'tai_quota_lease_tokens_held')).toBe(99);
      expect(await a.stop('SIGTERM')).toBe(0);
      expect(await redis.hget(window, 'leased')).toBe('1');
      // The other instance leases from what came back: 999 left, a lease of 100 again.
      const r = await get(b.url, 'DEMO_KEY');
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit']).toMatch(/^"demo";r=998;t=\d+$/);
      expect(await redis.hget(window, 'leased')).toBe('101');
    } finally {
      redis.disconnect();
    }
  });

  it('leases: a lease left idle goes back to Redis', async () => {
    const prefix = `tai-test-${randomUUID().slice(0, 8)}`;
    const [a] = await twoInstances({
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_DEMO: '1000/60',
      REDIS_LEASE_MAX: '100',
      REDIS_LEASE_IDLE_MS: '200',
    });
    const redis = new Redis(TEST_REDIS_URL!);
    try {
      const window = demoWindow(prefix);
      expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);
      // Polled, not timed: the lease of 100 is back (1 spent) once it has been idle 200 ms.
      for (let i = 0; i < 100 && (await redis.hget(window, 'leased')) !== '1'; i++)
        await sleep(100);
      expect(await redis.hget(window, 'leased')).toBe('1');
      expect(await metric(a.url, 'tai_quota_lease_tokens_held')).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('leases in a Redis outage: an instance spends the lease it holds, then its fallback share; the overshoot is the fallback share, the leases add none', async () => {
    const redis = new URL(TEST_REDIS_URL!);
    const proxy = await tcpProxy(redis.hostname, Number(redis.port || 6379));
    proxies.push(proxy);
    const quota = 40;
    const share = 0.5;
    const [a, b] = await twoInstances({
      REDIS_URL: `redis://${redis.hostname}:${proxy.port}`,
      RATE_LIMIT_DEMO: `${quota}/60`,
      REDIS_FALLBACK_SHARE: String(share),
    });
    expect((await get(a.url, 'DEMO_KEY')).status).toBe(200);
    expect((await get(b.url, 'DEMO_KEY')).status).toBe(200);
    // a leased 10 (40/4), b 7 (30/4): counted in Redis when leased, 17 of 40.
    const held = [
      await metric(a.url, 'tai_quota_lease_tokens_held'),
      await metric(b.url, 'tai_quota_lease_tokens_held'),
    ];
    expect(held).toEqual([9, 6]);

    proxy.cut();
    const passed = [0, 0];
    for (let i = 0; i < 80; i++) {
      const r = await get((i % 2 ? b : a).url, 'DEMO_KEY');
      if (r.status === 200) passed[i % 2]!++;
    }
    // Each instance: what it held (at most a lease, which is at most a quarter of what was left
    // and at most 100), then REDIS_FALLBACK_SHARE of the quota on its own.
    expect(passed).toEqual([9 + quota * share, 6 + quota * share]);
    // The window's total: Redis's 17 (the two answered, the 15 held) plus each instance's share.
    const total = 2 + passed[0]! + passed[1]!;
    expect(total).toBe(17 + 2 * quota * share);
    expect(total - quota).toBeLessThanOrEqual(2 * quota * share);
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
    // a's first request leased 2 of 8 (a quarter) and a spends the one it still holds; then each
    // instance allows its share (4 of 8) locally: 1 + 8 of the 12 pass.
    expect(during.filter((r) => r.status === 200)).toHaveLength(9);
    for (const s of [a, b]) {
      const q = (await readyz(s.url)).quotas;
      expect(q).toMatchObject({ backend: 'redis', status: 'fallback', fallback_share: 0.5 });
      expect(await metric(s.url, 'tai_quota_backend_up')).toBe(0);
    }
    // a: one from its lease, five on its own; b: six on its own.
    expect(await metric(a.url, 'tai_quota_lease_decisions_total')).toBe(1);
    expect(await metric(a.url, 'tai_quota_fallback_decisions_total')).toBe(5);
    expect(await metric(b.url, 'tai_quota_fallback_decisions_total')).toBe(6);
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
    // Redis counted the 2 leased before the cut: 6 more pass, shared again.
    const after = [];
    for (let i = 0; i < 9; i++) after.push((await get((i % 2 ? b : a).url, 'DEMO_KEY')).status);
    expect(after.filter((st) => st === 200)).toHaveLength(6);
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
      // Under 8 left, a lease is one token: every decision asks Redis (none held to spend).
      RATE_LIMIT_DEMO: '7/60',
      REDIS_FALLBACK_SHARE: '1',
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
