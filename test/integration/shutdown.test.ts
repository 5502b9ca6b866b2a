// SIGTERM lets every accepted request finish with a full response, then the process exits 0.
import { describe, expect, it } from 'vitest';
import { raw, startServer } from '../helpers/server.ts';

describe('graceful shutdown', () => {
  it('completes in-flight requests after SIGTERM and refuses new connections', async () => {
    const server = await startServer();
    const full = (await raw(`${server.url}/v1/registry/assets`)).body.length;
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      raw(`${server.url}/v1/registry/assets${i % 2 ? '?limit=5' : ''}`),
    );
    // Give the requests time to be accepted, then ask the server to stop while they are served.
    await new Promise((r) => setTimeout(r, 5));
    const exited = server.stop('SIGTERM');
    const results = await Promise.allSettled(inFlight);
    const done = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<Awaited<(typeof inFlight)[number]>>).value);
    // Every request that got an answer got a whole one.
    for (const res of done) {
      expect(res.status).toBe(200);
      if (res.headers['content-length'])
        expect(res.body.length).toBe(Number(res.headers['content-length']));
    }
    expect(done.length).toBeGreaterThan(0);
    expect(done.filter((r) => !r.body.length).length).toBe(0);
    expect(full).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(server.output()).toContain('shutting down');
    await expect(raw(`${server.url}/v1/registry/assets`)).rejects.toThrow();
  });
});
