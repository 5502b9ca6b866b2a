import { describe, expect, it } from 'vitest';
import { answer, type Answers } from '../../../src/server/steps/answer.ts';
import { target } from '../../../src/server/steps/target.ts';
import { route } from '../../../src/server/steps/route.ts';
import { createMemo } from '../../../src/server/steps/memo.ts';
import { prepareProblem } from '../../../src/representation/respond.ts';
import { handlerOf, jsonBody, send } from './harness.ts';

const memo = createMemo(8);
const calls: string[] = [];
const answers: Answers = {
  fastPath: true,
  operational: async (ctx) => void calls.push(`ops ${ctx.path}`),
  operation: (ctx) => void calls.push(`operation ${ctx.path}${ctx.search}`),
  astro: async (ctx) => void calls.push(`astro ${ctx.path}${ctx.search}`),
};
const body = jsonBody('{"tfin":"TFIN-X"}');
memo.set('/v1/registry/asset?tfin=TFIN-X', { path: '/v1/registry/asset', body });
memo.set('/v1/registry/asset?tfin=nope', {
  path: '/v1/registry/asset',
  problem: prepareProblem({
    code: 'invalid_parameter',
    detail: 'tfin is not a TFIN.',
    extensions: {},
  }),
});
const { handle } = handlerOf(
  (ctx) => target(ctx, { maxUrlBytes: 4096, memo }),
  (ctx) => route(ctx, { staticFiles: new Map() }),
  (ctx) => answer(ctx, answers),
);

describe('answer step', () => {
  it('answers a remembered body with its ETag, and 304 when it matches', async () => {
    const r = await send(handle, '/v1/registry/asset?tfin=TFIN-X');
    expect(r.statusCode).toBe(200);
    expect(r.payload).toBe('{"tfin":"TFIN-X"}');
    expect(r.headers['cache-control']).toBe('private, max-age=60, stale-while-revalidate=300');
    const etag = r.headers['etag'] as string;
    const again = await send(handle, {
      url: '/v1/registry/asset?tfin=TFIN-X',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
  });

  it('answers a remembered problem with this request id in instance', async () => {
    const r = await send(handle, '/v1/registry/asset?tfin=nope');
    expect(r.statusCode).toBe(400);
    expect(r.json().instance).toBe(`urn:uuid:${r.headers['x-request-id']}`);
  });

  it('sends the rest to the answer of its operation, or every operation to Astro with FAST_PATH=off', async () => {
    calls.length = 0;
    await send(handle, '/v1/system/status');
    await send(handle, '/v1/registry/asset?tfin=TFIN-Y');
    await send(handle, '/healthz');
    answers.fastPath = false;
    await send(handle, '/v1/market/stablecoins');
    await send(handle, '/v1/registry/asset?tfin=TFIN-Y');
    answers.fastPath = true;
    expect(calls).toEqual([
      'operation /v1/system/status',
      'operation /v1/registry/asset?tfin=TFIN-Y',
      'ops /healthz',
      'astro /v1/market/stablecoins',
      'astro /v1/registry/asset?tfin=TFIN-Y',
    ]);
  });
});
