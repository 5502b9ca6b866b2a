// The per-address limit on refused requests (issue #37, src/access/refusal-limit.ts): requests
// refused without a working key count against their address; past REFUSAL_LIMIT the address is
// answered 429 at once, except a request with a key already known good; the health endpoints
// stay open.
import { afterAll, describe, expect, it } from 'vitest';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
});

describe('the refusal limit per address', () => {
  it('answers 429 past the limit, but not a known key and not the health endpoints', async () => {
    server = await startServer({ REFUSAL_LIMIT: '5/60' });
    // A known key before the block (DEMO_KEY: known once it was accepted).
    expect((await raw(`${server.url}/v1/registry/assets`)).status).toBe(200);
    const refused = [
      await raw(`${server.url}/v1/registry/assets`, { noKey: true }),
      await raw(`${server.url}/v1/registry/assets`, {
        noKey: true,
        headers: { 'x-api-key': 'tai_live_nope' },
      }),
      await raw(`${server.url}/v1/nothing`, { noKey: true }),
      await raw(`${server.url}/v1/registry/assets?limit=zero`, { noKey: true }),
      await raw(`${server.url}/v1/registry/assets`, { noKey: true }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 404, 401, 401]);
    // Counted when each response closed: the next one is refused before any other work.
    let blocked = await raw(`${server.url}/v1/registry/assets`, { noKey: true });
    for (let i = 0; i < 50 && blocked.status !== 429; i++) {
      await new Promise((r) => setTimeout(r, 50));
      blocked = await raw(`${server.url}/v1/registry/assets`, { noKey: true });
    }
    expect(blocked.status).toBe(429);
    const body = JSON.parse(blocked.body.toString());
    expect(body.code).toBe('too_many_failed_attempts');
    expect(body.detail).toMatch(
      /^Too many requests from this address were refused .*; retry in \d+ s\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await raw(`${server.url}/v1/nothing`, { noKey: true })).status).toBe(429);
    // A key known good passes; the health endpoints are never held back.
    expect((await raw(`${server.url}/v1/registry/assets`)).status).toBe(200);
    expect((await raw(`${server.url}/healthz`, { noKey: true })).status).toBe(200);
  });
});
