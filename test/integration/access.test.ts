// Access control over real HTTP: keys, the demo tier, rate limits, metering and the status.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function server(env: Record<string, string> = {}) {
  const s = await startServer({
    FLUSH_MS: '200',
    HEARTBEAT_MS: '200',
    STATUS_CACHE_MS: '100',
    KEY_CACHE_MS: '300',
    ...env,
  });
  servers.push(s);
  return s;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/* eslint-disable @typescript-eslint/no-explicit-any */

describe('access control', () => {
  it('refuses a request without a key with 401, WWW-Authenticate and a problem body', async () => {
    const s = await server();
    const res = await fetch(`${s.url}/v1/registry/assets`);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    await expectProblem(res, 401, 'missing_api_key');
    // A CORS preflight needs no key.
    expect(
      (
        await raw(`${s.url}/v1/registry/assets`, {
          method: 'OPTIONS',
          noKey: true,
          headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
        })
      ).status,
    ).toBe(204);
  });

  it('serves DEMO_KEY with RateLimit headers and answers the quota with 429 and Retry-After', async () => {
    const s = await server({ RATE_LIMIT_DEMO: '3/60' });
    for (let i = 0; i < 3; i++) {
      const res = await raw(`${s.url}/v1/registry/assets`);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"demo";q=3;w=60');
      expect(res.headers['ratelimit']).toMatch(new RegExp(`^"demo";r=${2 - i};t=\\d+$`));
    }
    const refused = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': 'DEMO_KEY' },
    });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"demo";r=0;t=\d+$/);
    await expectProblem(refused, 429, 'rate_limited');
    // The demo tier is per client address, so a subscription key is unaffected.
    const created = JSON.parse(
      (
        await keysTool(
          s.env,
          'create',
          '--tier',
          'institutional',
          '--owner',
          'Quota test',
          '--json',
        )
      ).stdout,
    );
    expect(
      (
        await raw(`${s.url}/v1/registry/assets`, {
          noKey: true,
          headers: { 'x-api-key': created.key },
        })
      ).headers['ratelimit-policy'],
    ).toBe('"institutional";q=600;w=60');
  });

  it('lets the demo tier be switched off', async () => {
    const s = await server({ DEMO_KEY_ENABLED: 'false' });
    await expectProblem(
      await fetch(`${s.url}/v1/registry/assets`, { headers: { 'x-api-key': 'DEMO_KEY' } }),
      403,
      'demo_key_disabled',
    );
  });

  it('creates a key that works, stores only its hash, and refuses it within seconds of revocation', async () => {
    const s = await server();
    const out = await keysTool(
      s.env,
      'create',
      '--tier',
      'institutional',
      '--owner',
      'Test',
      '--json',
    );
    expect(out.code).toBe(0);
    const created = JSON.parse(out.stdout);
    expect(created.key).toMatch(/^tai_live_[0-9A-Za-z]{36}$/);
    const ok = await raw(`${s.url}/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001`, {
      noKey: true,
      headers: { authorization: `Bearer ${created.key}` },
    });
    expect(ok.status).toBe(200);
    // Only the digest is at rest: the key's secret part appears nowhere in the database files
    // (nor in the metering journal beside them).
    const files = readdirSync(s.env['DATA_DIR']!, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(path.join(f.parentPath, f.name)));
    for (const bytes of files)
      expect(bytes.includes(Buffer.from(created.key.slice(9)))).toBe(false);
    const list = await keysTool(s.env, 'list', '--json');
    expect(JSON.parse(list.stdout).map((k: any) => k.id)).toContain(created.id);
    expect(list.stdout).not.toContain(created.key);

    expect((await keysTool(s.env, 'revoke', created.display_prefix)).code).toBe(0);
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      await sleep(100);
      status = (
        await raw(`${s.url}/v1/registry/assets`, {
          noKey: true,
          headers: { 'x-api-key': created.key },
        })
      ).status;
    }
    expect(status).toBe(401);
  });

  it('answers wrong and revoked keys identically, refuses keys in the URL, and limits failed attempts per address', async () => {
    const s = await server({ FAILED_AUTH_LIMIT: '5/60' });
    const created = JSON.parse(
      (await keysTool(s.env, 'create', '--tier', 'enterprise', '--owner', 'X', '--json')).stdout,
    );
    await keysTool(s.env, 'revoke', created.id);
    await sleep(400);
    const revoked = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': created.key },
    });
    const wrong = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': `${created.key.slice(0, -1)}Z` },
    });
    const a = (await expectProblem(revoked, 401, 'invalid_api_key')) as any;
    const b = (await expectProblem(wrong, 401, 'invalid_api_key')) as any;
    expect({ ...a, instance: '' }).toEqual({ ...b, instance: '' });
    expect(revoked.headers.get('www-authenticate')).toBe(wrong.headers.get('www-authenticate'));
    await expectProblem(
      await fetch(`${s.url}/v1/registry/assets?api_key=${created.key}`),
      400,
      'api_key_in_query',
    );
    for (let i = 0; i < 5; i++)
      await fetch(`${s.url}/v1/registry/assets`, { headers: { 'x-api-key': 'tai_live_nope' } });
    // The address may try no new key now, not even the real one: the block stops guessing.
    const fresh = JSON.parse(
      (await keysTool(s.env, 'create', '--tier', 'institutional', '--owner', 'Y', '--json')).stdout,
    );
    const blocked = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': fresh.key },
    });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectProblem(blocked, 429, 'too_many_failed_attempts');
    // The public demo key is no secret to guess, so it stays usable.
    expect(
      (await fetch(`${s.url}/v1/registry/assets`, { headers: { 'x-api-key': 'DEMO_KEY' } })).status,
    ).toBe(200);
  });
});

describe('metering and status', () => {
  it('meters usage per key per day per endpoint, reports live status, and keeps both across a restart', async () => {
    const first = await server();
    const key = JSON.parse(
      (await keysTool(first.env, 'create', '--tier', 'institutional', '--owner', 'Meter', '--json'))
        .stdout,
    );
    const headers = { 'x-api-key': key.key };
    for (let i = 0; i < 7; i++)
      await raw(`${first.url}/v1/registry/assets`, { noKey: true, headers });
    for (let i = 0; i < 3; i++)
      await raw(`${first.url}/v1/market/stablecoins`, { noKey: true, headers });
    await sleep(500);
    const status = (await (
      await fetch(`${first.url}/v1/system/status`, { headers })
    ).json()) as any;
    expectSchema('v1/system-status.schema.json', status);
    expect(status.data.status).toBe('ok');
    expect(status.data.uptime.sla_target_pct).toBe(99.99);
    // Operator facts are on /metrics, not in the public status (issue #14 item 13).
    const metrics = (await (await fetch(`${first.url}/metrics`)).text()).toString();
    expect(Number(/^tai_requests_24h (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(10);
    expect(metrics).toMatch(/^tai_active_keys 1$/m);
    expect(metrics).toMatch(/^tai_instances_alive 1$/m);
    expect(status.data.platform.counts).toMatchObject({
      venues: 24,
      member_states: 27,
      jurisdictions: 42,
    });
    const assets = status.data.latency.find((l: any) => l.endpoint === '/v1/registry/assets');
    expect(assets.windows['5m'].count).toBeGreaterThanOrEqual(7);
    expect(assets.windows['5m'].p50_ms).toBeGreaterThan(0);
    expect(assets.windows['5m'].p99_ms).toBeGreaterThanOrEqual(assets.windows['5m'].p50_ms);

    // SIGTERM flushes what is pending; the next process on the same database sees all of it, once.
    expect(await first.stop()).toBe(0);
    const usage = JSON.parse(
      (await keysTool(first.env, 'usage', '--key', key.id, '--json')).stdout,
    );
    expect(usage.find((u: any) => u.endpoint === '/v1/registry/assets').requests).toBe(7);
    expect(usage.find((u: any) => u.endpoint === '/v1/market/stablecoins').requests).toBe(3);
    const second = await server({ DATA_DIR: first.env['DATA_DIR']! });
    await sleep(300);
    const after = (await (
      await fetch(`${second.url}/v1/system/status`, { headers })
    ).json()) as any;
    expect(
      after.data.latency.find((l: any) => l.endpoint === '/v1/registry/assets').windows['24h']
        .count,
    ).toBeGreaterThanOrEqual(7);
    const usageAfter = JSON.parse(
      (await keysTool(first.env, 'usage', '--key', key.id, '--json')).stdout,
    );
    expect(usageAfter.find((u: any) => u.endpoint === '/v1/registry/assets').requests).toBe(7);
  });

  it('exposes /healthz, /readyz and /metrics (loopback only without a token)', async () => {
    const s = await server();
    expect(await (await fetch(`${s.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    expect(await (await fetch(`${s.url}/readyz`)).json()).toMatchObject({
      status: 'ready',
      database: { status: 'ok' },
    });
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(metrics).toContain('# TYPE tai_http_requests_total counter');
    const guarded = await server({ METRICS_TOKEN: 'secret-token' });
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(404);
    expect(
      (await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer secret-token' } }))
        .status,
    ).toBe(200);
  });
});
