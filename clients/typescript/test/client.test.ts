// The typed client against the real server (the built service as a process, signing with a key
// made as operators make it): keys, RateLimit and Retry-After, conditional requests, paging, the
// bulk formats and signature verification.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/helpers/server.ts';
import { readDataset } from '../../../src/dataset/artifact.ts';
import { createTaiClient, SignatureError } from '../src/index.ts';

const dataset = readDataset();
const rows = dataset.registry.rows;
let server: TestServer;

beforeAll(async () => {
  const key = path.join(mkdtempSync(path.join(tmpdir(), 'tai-client-')), 'signing.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
  server = await startServer({ SIGNING_KEY_FILE: key });
});
afterAll(async () => {
  await server?.stop();
});

/** A fetch that records what it sent and received. */
function recording(transform?: (body: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>) {
  const seen: { url: string; sent: Headers; status: number }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const res = await globalThis.fetch(input, init);
    seen.push({ url: String(input), sent: new Headers(init?.headers), status: res.status });
    if (!transform) return res;
    const body = transform(new Uint8Array(await res.arrayBuffer()));
    return new Response(body, { status: res.status, headers: res.headers });
  };
  return { fetch, seen };
}

describe('the client against the running server', () => {
  it('sends the key, types the answer and reads the RateLimit fields', async () => {
    const client = createTaiClient({ baseUrl: server.url, apiKey: 'DEMO_KEY' });
    const { data, response } = await client.api.GET('/v1/registry/asset', {
      params: { query: { tfin: rows[0]!.tfin } },
    });
    expect(response.status).toBe(200);
    expect(data?.data.tfin).toBe(rows[0]!.tfin);
    expect(data?.meta.dataset_version).toBe(dataset.dataset_version);
    const limit = client.rateLimit();
    expect(limit?.policy).toBeTruthy();
    expect(limit?.remaining).toBeGreaterThan(0);
    expect(limit?.quota).toBeGreaterThanOrEqual(limit!.remaining);
  });

  it('returns the problem of a refused request (no key: 401)', async () => {
    const client = createTaiClient({ baseUrl: server.url });
    const { error, response } = await client.api.GET('/v1/market/stablecoins');
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ status: 401 });
  });

  it('asks again with If-None-Match and serves a 304 from what it kept', async () => {
    const { fetch, seen } = recording();
    const client = createTaiClient({ baseUrl: server.url, apiKey: 'DEMO_KEY', fetch });
    const first = await client.api.GET('/v1/market/stablecoins');
    const second = await client.api.GET('/v1/market/stablecoins');
    expect(seen.map((s) => s.status)).toEqual([200, 304]);
    expect(seen[1]!.sent.get('if-none-match')).toBe(first.response.headers.get('etag'));
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual(first.data);
  });

  it('pages through the whole registry by cursor', async () => {
    const client = createTaiClient({ baseUrl: server.url, apiKey: 'DEMO_KEY' });
    const tfins: string[] = [];
    let pages = 0;
    for await (const page of client.assetPages({ limit: 10 })) {
      pages++;
      tfins.push(...page.data.map((a) => a.tfin));
    }
    expect(pages).toBe(Math.ceil(rows.length / 10));
    expect(new Set(tfins).size).toBe(rows.length);
  });

  it('reads the bulk formats', async () => {
    const client = createTaiClient({ baseUrl: server.url, apiKey: 'DEMO_KEY' });
    const csv = await client.bulk('/v1/registry/assets', 'csv');
    expect(csv.split('\n')[0]).toMatch(/^"?tfin"?,/);
    const ndjson = await client.bulk('/v1/compliance/mica-status', 'ndjson');
    const lines = ndjson.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) JSON.parse(line);
  });

  it('verifies every operation’s signature with the published keys', async () => {
    const client = createTaiClient({
      baseUrl: server.url,
      apiKey: 'DEMO_KEY',
      verifySignatures: true,
    });
    for (const r of [
      await client.api.GET('/v1/registry/assets'),
      await client.api.GET('/v1/registry/asset', { params: { query: { tfin: rows[1]!.tfin } } }),
      await client.api.GET('/v1/market/stablecoins'),
      await client.api.GET('/v1/compliance/mica-status'),
      await client.api.GET('/v1/system/status'),
    ])
      expect(r.response.status).toBe(200);
    // A problem is signed too.
    const missing = await client.api.GET('/v1/registry/asset', {
      params: { query: { tfin: 'TFIN-DEBT-ETH-2099-0001' } },
    });
    expect(missing.response.status).toBe(404);
  });

  it('refuses an answer changed by one byte', async () => {
    const { fetch } = recording((body) => {
      const changed = body.slice();
      changed[changed.length >> 1]! ^= 1;
      return changed;
    });
    const client = createTaiClient({
      baseUrl: server.url,
      apiKey: 'DEMO_KEY',
      verifySignatures: true,
      fetch,
    });
    await expect(client.api.GET('/v1/market/stablecoins')).rejects.toThrow(SignatureError);
  });
});

describe('the client under a quota', () => {
  it('waits out a 429 as Retry-After says, or returns it when the wait is too long', async () => {
    const limited = await startServer({ RATE_LIMIT_DEMO: '2/2' });
    try {
      const { fetch, seen } = recording();
      const patient = createTaiClient({ baseUrl: limited.url, apiKey: 'DEMO_KEY', fetch });
      for (let i = 0; i < 3; i++) {
        const { response } = await patient.api.GET('/v1/market/stablecoins');
        expect(response.status).toBe(200);
      }
      expect(seen.map((s) => s.status)).toContain(429);

      const hasty = createTaiClient({
        baseUrl: limited.url,
        apiKey: 'DEMO_KEY',
        maxRetryAfterSeconds: 0,
        cacheEntries: 0,
      });
      let status = 200;
      for (let i = 0; i < 4 && status === 200; i++)
        status = (await hasty.api.GET('/v1/market/stablecoins')).response.status;
      expect(status).toBe(429);
      expect(hasty.rateLimit()?.remaining).toBe(0);
    } finally {
      await limited.stop();
    }
  });
});
