import { describe, expect, it } from 'vitest';
import { target } from '../../../src/server/steps/target.ts';
import { found, route } from '../../../src/server/steps/route.ts';
import { headers } from '../../../src/server/steps/headers.ts';
import { method } from '../../../src/server/steps/method.ts';
import { createMemo } from '../../../src/server/steps/memo.ts';
import type { StaticFile } from '../../../src/server/static-files.ts';
import { handlerOf, jsonBody, PASSED, send } from './harness.ts';

const staticFiles = new Map<string, StaticFile>([
  ['/docs', { body: jsonBody('<html></html>'), html: true, cacheControl: 'no-cache' }],
  ['/openapi.json', { body: jsonBody('{}'), html: false, cacheControl: 'no-cache' }],
]);
const { handle } = handlerOf(
  (ctx) => target(ctx, { maxUrlBytes: 4096, memo: createMemo(8) }),
  (ctx) => route(ctx, { staticFiles }),
  (ctx) => headers(ctx, { version: '2026-01-01.000000000000', signer: null }),
  found,
  method,
);

describe('route step (and found)', () => {
  it('routes the operations, the operational endpoints and the site files', async () => {
    expect((await send(handle, '/v1/registry/assets')).json().route).toBe('api');
    expect((await send(handle, '/readyz')).json().route).toBe('ops');
    expect((await send(handle, '/docs')).json().route).toBe('static');
  });

  it('answers an unknown API path 404 with the API headers and the catalogue wording', async () => {
    const r = await send(handle, '/v1/registry/funds');
    expect(r.statusCode).toBe(404);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(r.json().detail).toBe(
      'No operation at /v1/registry/funds. See /docs for the five operations under /v1.',
    );
  });

  it('answers any other unknown path 404 without CORS', async () => {
    const r = await send(handle, '/pricing');
    expect(r.statusCode).toBe(404);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(r.json().detail).toBe('Nothing at /pricing.');
  });
});

describe('headers step', () => {
  it('puts page security headers on HTML and CORS on other site files', async () => {
    const page = await send(handle, '/docs');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const file = await send(handle, '/openapi.json');
    expect(file.headers['access-control-allow-origin']).toBe('*');
    expect(file.headers['x-frame-options']).toBeUndefined();
  });

  it('always carries the request id and nosniff', async () => {
    const r = await send(handle, '/readyz');
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('method step', () => {
  it('answers a CORS preflight 204 without a key', async () => {
    const r = await send(handle, {
      method: 'OPTIONS',
      url: '/v1/registry/assets',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe(
      'X-API-Key, Authorization, If-None-Match',
    );
    expect(r.headers['access-control-max-age']).toBe('86400');
  });

  it('refuses other methods 405 with Allow and the catalogue wording', async () => {
    const r = await send(handle, { method: 'DELETE', url: '/v1/registry/assets' });
    expect(r.statusCode).toBe(405);
    expect(r.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(r.json()).toMatchObject({
      code: 'method_not_allowed',
      detail: 'DELETE is not allowed on /v1/registry/assets; the API is read-only.',
      allowed: ['GET', 'HEAD', 'OPTIONS'],
    });
  });

  it('lets GET and HEAD through', async () => {
    expect((await send(handle, '/v1/registry/assets')).statusCode).toBe(PASSED);
    expect((await send(handle, { method: 'HEAD', url: '/v1/registry/assets' })).statusCode).toBe(
      PASSED,
    );
  });
});
