// The fast path answers lookup hits from memory; Astro's endpoint is the authority. Both must
// send the same bytes for every asset.
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
      // Only the fast path has a precomputed validator; Astro's answer is the same data.
      expect(a.headers['etag']).toBeDefined();
    }
  });
});
