// Issue #26: an Accept that admits none of an operation's media types gets 406 with the types it
// answers with (RFC 9110 §15.5.7), on the fast path (also for a target it remembers) and through
// Astro alike; `format=` in the URL names the representation and wins over Accept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/artifact.ts';
import { expectProblem } from '../helpers/schemas.ts';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

const { dataset_version: version, registry } = readDataset();
const tfin = registry.rows[0]!.tfin;
const DATASETS = ['/v1/registry/assets', '/v1/market/stablecoins', '/v1/compliance/mica-status'];
const DATASET_TYPES = ['application/json', 'text/csv', 'application/x-ndjson'];
let fast: TestServer;
let astro: TestServer;
beforeAll(async () => {
  [fast, astro] = await Promise.all([startServer(), startServer({ FAST_PATH: 'off' })]);
});
afterAll(async () => {
  await Promise.all([fast?.stop(), astro?.stop()]);
});

const get = (server: TestServer, path: string, accept?: string) =>
  raw(server.url + path, accept ? { headers: { accept } } : {});

async function expect406(server: TestServer, path: string, accept: string, allowed: string[]) {
  const res = await get(server, path, accept);
  const body = await expectProblem(
    new Response(new Uint8Array(res.body), {
      status: res.status,
      headers: res.headers as Record<string, string>,
    }),
    406,
    'not_acceptable',
  );
  expect(body['allowed'], `${path} ${accept}`).toEqual(allowed);
  expect(body['detail']).toContain(allowed.join(', '));
}

describe('406 for an Accept the operation cannot satisfy', () => {
  it('every operation, before and after the target is remembered, fast path and Astro', async () => {
    for (const server of [fast, astro]) {
      for (const path of DATASETS) {
        await expect406(server, path, 'application/xml', DATASET_TYPES);
        expect((await get(server, path)).status).toBe(200); // now remembered (fast path)
        await expect406(server, path, 'application/xml', DATASET_TYPES);
        await expect406(server, `${path}?dataset_version=${version}`, 'text/html', DATASET_TYPES);
      }
      const lookup = `/v1/registry/asset?tfin=${tfin}`;
      expect((await get(server, lookup)).status).toBe(200);
      await expect406(server, lookup, 'text/csv', ['application/json']);
      await expect406(server, '/v1/system/status', 'application/xml', ['application/json']);
    }
  });

  it('accepts wildcards, low q-values and parameters; format= wins over Accept', async () => {
    for (const accept of [
      '*/*',
      'text/*',
      'application/*;q=0.1, text/html',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/csv; charset=utf-8',
    ])
      expect((await get(fast, '/v1/registry/assets', accept)).status, accept).toBe(200);
    const csv = await get(fast, '/v1/registry/assets?format=csv', 'application/xml');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect((await get(fast, `/v1/registry/asset?tfin=${tfin}`, 'application/*')).status).toBe(200);
  });
});
