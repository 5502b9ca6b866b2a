import { describe, expect, it } from 'vitest';
import { target } from '../../../src/server/steps/target.ts';
import { createMemo } from '../../../src/server/steps/memo.ts';
import { handlerOf, jsonBody, PASSED, send } from './harness.ts';

describe('target step', () => {
  const memo = createMemo(8);
  const { handle } = handlerOf((ctx) => target(ctx, { maxUrlBytes: 64, memo }));

  it('decodes the target once into path and query', async () => {
    const r = await send(handle, '/v1//registry/assets/?limit=2');
    expect(r.statusCode).toBe(PASSED);
    expect(r.json()).toMatchObject({ path: '/v1/registry/assets', search: '?limit=2' });
  });

  it('refuses a target over the limit with 414 and the limit in the detail', async () => {
    const r = await send(handle, `/v1/registry/asset?tfin=${'A'.repeat(80)}`);
    expect(r.statusCode).toBe(414);
    expect(r.json()).toMatchObject({
      code: 'uri_too_long',
      detail: 'The request target is longer than 64 bytes.',
    });
  });

  it('refuses a target it cannot decode with 400 naming the reason', async () => {
    const r = await send(handle, '/v1/registry%2Fassets');
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('malformed_request');
    expect(r.json().detail).toMatch(/^The request target was refused: .+\.$/);
  });

  it('takes a remembered target as decided, for GET and HEAD only', async () => {
    memo.set('/v1/registry/asset?tfin=X', { path: '/v1/registry/asset', body: jsonBody('{}') });
    const hit = await send(handle, '/v1/registry/asset?tfin=X');
    expect(hit.json()).toMatchObject({
      path: '/v1/registry/asset',
      search: '',
      hot: '/v1/registry/asset',
    });
    const post = await send(handle, { method: 'POST', url: '/v1/registry/asset?tfin=X' });
    expect(post.json()).toMatchObject({ search: '?tfin=X', hot: null });
  });
});
