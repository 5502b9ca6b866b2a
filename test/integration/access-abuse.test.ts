// Issue #14 items 12, 14 and 15: the failed-auth block never refuses a known-good key; /metrics
// behind a same-host proxy is decided by the forwarded client address; with TRUST_PROXY, header
// values that are not IP addresses are ignored, IPv6 counts by /64, and limiter memory is bounded.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/access/keys.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
async function server(env: Record<string, string>) {
  const s = await startServer(env);
  servers.push(s);
  return s;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

describe('failed-auth block (item 12)', () => {
  it('keeps a known-good key working after 20 bad keys from its address, across the key-cache expiry', async () => {
    const s = await server({ FAILED_AUTH_LIMIT: '20/300', KEY_CACHE_MS: '5000' });
    const create = ['create', '--tier', 'institutional', '--owner', 'NAT user', '--json'];
    const created = await keysTool(s.env, ...create);
    const good = (JSON.parse(created.stdout) as { key: string }).key;
    const asset = `${s.url}/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001`;
    expect((await raw(asset, { noKey: true, headers: { 'x-api-key': good } })).status).toBe(200);
    // An attacker behind the same address tries 22 keys: past 20 the address is blocked for new keys.
    const bad: number[] = [];
    for (let i = 0; i < 22; i++)
      bad.push(
        (await raw(asset, { noKey: true, headers: { 'x-api-key': generateKey().key } })).status,
      );
    expect(bad.slice(0, 21).every((st) => st === 401)).toBe(true);
    expect(bad[21]).toBe(429);
    // The key cache (5 s) expires: the good key must still be served, not refused with 429.
    await sleep(5300);
    const after = await raw(asset, { noKey: true, headers: { 'x-api-key': good } });
    expect(after.status).toBe(200);
    // And a new guess is still refused.
    expect(
      (await raw(asset, { noKey: true, headers: { 'x-api-key': generateKey().key } })).status,
    ).toBe(429);
  });
});

describe('/metrics behind a trusted same-host proxy (item 14)', () => {
  it('is refused when the forwarded client is not loopback', async () => {
    const s = await server({ TRUST_PROXY: 'loopback' });
    const via = (xff?: string) =>
      raw(`${s.url}/metrics`, {
        noKey: true,
        ...(xff ? { headers: { 'x-forwarded-for': xff } } : {}),
      });
    expect((await via('203.0.113.9')).status).toBe(404);
    expect((await via('127.0.0.1, 203.0.113.9')).status).toBe(404);
    expect((await via('127.0.0.1')).status).toBe(200);
    expect((await via()).status).toBe(200);
  });
});

describe('TRUST_PROXY=true and X-Forwarded-For (item 15)', () => {
  it('does not let rotating non-IP values or IPv6 in one /64 escape the demo quota', async () => {
    const s = await server({ TRUST_PROXY: 'true', RATE_LIMIT_DEMO: '3/60' });
    const pad = 'p'.repeat(8000);
    const statuses = async (xff: (i: number) => string) => {
      const out: number[] = [];
      for (let i = 0; i < 5; i++)
        out.push(
          (await raw(`${s.url}/v1/registry/assets`, { headers: { 'x-forwarded-for': xff(i) } }))
            .status,
        );
      return out;
    };
    // Not addresses: the socket's address counts (127.0.0.1), whose quota then runs out.
    expect(await statuses((i) => `not-an-ip-${i}${pad}`)).toEqual([200, 200, 200, 429, 429]);
    // One IPv6 /64, rotated: one client.
    expect(await statuses((i) => `2001:db8:1:2::${i + 1}`)).toEqual([200, 200, 200, 429, 429]);
    // Valid, distinct IPv4 addresses behind a proxy trusted for every hop are distinct clients.
    expect((await statuses((i) => `198.51.100.${i + 1}`)).every((st) => st === 200)).toBe(true);
    // The access log holds the address used, never the 8 KB header value.
    await sleep(1200); // log lines are written in batches, at least every second
    const lines = s
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'));
    expect(lines.length).toBeGreaterThan(10);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(600);
    expect(s.output()).not.toContain('not-an-ip');
  });

  it('keeps memory bounded under thousands of distinct 8 KB X-Forwarded-For values', async () => {
    const s = await server({ TRUST_PROXY: 'true', FAILED_AUTH_LIMIT: '5/60', LOG_LEVEL: 'warn' });
    const pid = s.child.pid!;
    const send = (i: number) =>
      raw(`${s.url}/v1/registry/assets`, {
        headers: { 'x-forwarded-for': `${i}-${'x'.repeat(8000)}`, 'x-api-key': generateKey().key },
      });
    for (let i = 0; i < 200; i++) await send(i); // warm-up
    const before = rssMb(pid);
    for (let round = 0; round < 8; round++)
      await Promise.all(Array.from({ length: 250 }, (_, i) => send(round * 250 + i + 200)));
    const after = rssMb(pid);
    expect(after - before).toBeLessThan(60);
  });
});
