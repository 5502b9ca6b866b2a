// The fast path answers lookup hits from memory; Astro's endpoint calls the same answer. Both must
// send the same bytes for every asset (every operation: fast-path-parity.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

let fast: TestServer;
let astro: TestServer;

beforeAll(async () => {
  [fast, astro] = await Promise.all([startServer(), startServer({ FAST_PATH: 'off' })]);
});
afterAll(async () => {
  await Promise.all([fast?.stop(), astro?.stop()]);
});

describe('fast path and Astro endpoint', () => {
  it('return identical bodies for every asset', async () => {
    const list = JSON.parse((await raw(`${fast.url}/v1/registry/assets`)).body.toString()) as {
      data: { tfin: string }[];
    };
    expect(list.data.length).toBeGreaterThanOrEqual(30);
    for (const { tfin } of list.data) {
      const a = await raw(`${fast.url}/v1/registry/asset?tfin=${tfin}`);
      const b = await raw(`${astro.url}/v1/registry/asset?tfin=${tfin}`);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.equals(b.body), tfin).toBe(true);
      // Both answer through the lookup's answer (src/api/answers.ts): the same validator too.
      expect(a.headers['etag']).toBeDefined();
      expect(b.headers['etag']).toBe(a.headers['etag']);
    }
  });
});

describe('remembered request targets', () => {
  // A target that once resolved to a prebuilt body skips parsing and lookup afterwards; everything
  // that must run per request still does, and nothing about the first answer leaks to the next.
  const tfin = 'TFIN-DEBT-ETH-2021-0001';
  const target = `/v1/registry/asset?tfin=${tfin.toLowerCase()}`;

  it('answer repeated requests the same way, keys and quotas checked every time', async () => {
    const first = await raw(`${fast.url}${target}`);
    const again = await raw(`${fast.url}${target}`);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers['etag']).toBe(first.headers['etag']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(again.headers['ratelimit']).toMatch(/^"demo";r=\d+;t=\d+$/);
    expect(again.headers['access-control-allow-origin']).toBe('*');
    expect(again.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await raw(`${fast.url}${target}`, { noKey: true })).status).toBe(401);
    const bad = await raw(`${fast.url}${target}`, {
      noKey: true,
      headers: { 'x-api-key': 'tai_live_000000000000000000000000000000AAAAAA' },
    });
    expect(bad.status).toBe(401);
  });

  it('still refuse other methods, conditional requests and HEAD as before', async () => {
    await raw(`${fast.url}${target}`);
    expect((await raw(`${fast.url}${target}`, { method: 'POST' })).status).toBe(405);
    const head = await raw(`${fast.url}${target}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const etag = head.headers['etag'] as string;
    const cached = await raw(`${fast.url}${target}`, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    // A different target (here: the key in the query) is resolved, and refused, on its own.
    expect((await raw(`${fast.url}${target}&api_key=x`)).status).toBe(400);
  });
});

describe('remembered lookup problems', () => {
  it('name each request in instance and keep the rest of the answer', async () => {
    const target = '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2099-0001';
    const first = await raw(`${fast.url}${target}`);
    const again = await raw(`${fast.url}${target}`);
    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    const a = JSON.parse(first.body.toString()) as Record<string, unknown>;
    const b = JSON.parse(again.body.toString()) as Record<string, unknown>;
    expect(a['instance']).toBe(`urn:uuid:${first.headers['x-request-id']}`);
    expect(b['instance']).toBe(`urn:uuid:${again.headers['x-request-id']}`);
    expect({ ...b, instance: null }).toEqual({ ...a, instance: null });
    expect(a['code']).toBe('asset_not_found');
    expect(again.headers['content-type']).toBe('application/problem+json');
    expect(Number(again.headers['content-length'])).toBe(again.body.length);
    const astroAnswer = await raw(`${astro.url}${target}`);
    const c = JSON.parse(astroAnswer.body.toString()) as Record<string, unknown>;
    expect({ ...c, instance: null }).toEqual({ ...a, instance: null });
  });
});
