import { describe, expect, it } from 'vitest';
import { connection } from '../../../src/server/steps/connection.ts';
import { onClose } from '../../../src/server/steps/on-close.ts';
import { receiveBodyFirst } from '../../../src/server/steps/body.ts';
import type { AccessEntry } from '../../../src/server/log.ts';
import { handlerOf, PASSED, send } from './harness.ts';

describe('connection step', () => {
  let draining = false;
  const { handle } = handlerOf((ctx) => connection(ctx, { draining: () => draining }));

  it('refuses a Host that is not host[:port] with 400 and closes', async () => {
    const r = await send(handle, { url: '/', headers: { host: 'a b' } });
    expect(r.statusCode).toBe(400);
    expect(r.headers['connection']).toBe('close');
  });

  it('serves an absolute-form target by its path', async () => {
    const r = await send(handle, 'http://example.org/v1/registry/assets?limit=1');
    expect(r.statusCode).toBe(PASSED);
    expect(r.raw.req.url).toBe('/v1/registry/assets?limit=1');
  });

  it('closes the connection while draining', async () => {
    draining = true;
    const r = await send(handle, '/healthz');
    draining = false;
    expect(r.headers['connection']).toBe('close');
  });
});

describe('body step', () => {
  it('reads an announced body before the steps run, and refuses one over 64 KB', async () => {
    const { handle: inner } = handlerOf((ctx) => connection(ctx, { draining: () => false }));
    const seen = new WeakSet<object>();
    const handle: typeof inner = (req, res) => {
      // light-my-request's request does not set `complete` at its end as node:http's does.
      if (!seen.has(req)) {
        seen.add(req);
        // Nor does its socket close gently.
        Object.assign(req.socket, { destroySoon: () => undefined });
        req.once('end', () => Object.defineProperty(req, 'complete', { value: true }));
      }
      if (!receiveBodyFirst(req, res, handle)) inner(req, res);
    };
    const small = await send(handle, { method: 'GET', url: '/', payload: 'x'.repeat(100) });
    expect(small.statusCode).toBe(PASSED);
    const big = await send(handle, { method: 'GET', url: '/', payload: 'x'.repeat(70_000) });
    expect(big.statusCode).toBe(400);
    expect(big.json().detail).toBe(
      'The request has a body of more than 65536 bytes; no operation takes a body.',
    );
  });
});

describe('on-close step', () => {
  it('records the operation, the principal and one access line with the problem code', async () => {
    const lines: AccessEntry[] = [];
    const recorded: unknown[][] = [];
    const observed: unknown[][] = [];
    const deps = {
      access: (e: AccessEntry) => void lines.push(e),
      runtime: {
        recorder: { record: (...a: unknown[]) => void recorded.push(a) },
        metrics: { observe: (...a: unknown[]) => void observed.push(a) },
      },
    };
    const { handle } = handlerOf((ctx) => {
      onClose(ctx, deps as never);
      ctx.operation = ctx.loggedPath = '/v1/registry/assets';
      ctx.principal = { kind: 'key', id: 'k1', tier: 'pro', owner: 'o', displayPrefix: 'tai_abc' };
    });
    const r = await send(handle, '/v1/registry/assets');
    await new Promise((resolve) => setImmediate(resolve));
    expect(recorded).toEqual([['/v1/registry/assets', 'k1', expect.any(Number), PASSED]]);
    expect(observed).toEqual([['/v1/registry/assets', PASSED]]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: r.headers['x-request-id'],
      method: 'GET',
      path: '/v1/registry/assets',
      status: PASSED,
      keyPrefix: 'tai_abc',
    });
  });
});
