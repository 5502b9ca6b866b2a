import { describe, expect, it } from 'vitest';
import type { AuthResult, Principal } from '../../../src/access/authenticator.ts';
import type { LimitDecision } from '../../../src/access/rate-limit.ts';
import { access, type AccessDeps } from '../../../src/server/steps/access.ts';
import { target } from '../../../src/server/steps/target.ts';
import { createMemo } from '../../../src/server/steps/memo.ts';
import { handlerOf, PASSED, send } from './harness.ts';

const demo: Principal = { kind: 'demo' };
const decision = (allowed: boolean): LimitDecision => ({
  allowed,
  policy: 'demo',
  remaining: allowed ? 9 : 0,
  resetSeconds: 42,
  headers: {
    'RateLimit-Policy': '"demo";q=10;w=60',
    RateLimit: `"demo";r=${allowed ? 9 : 0};t=42`,
    ...(allowed ? {} : { 'Retry-After': '42' }),
  },
});

/** Small in-memory deps: keys "good" and DEMO_KEY; "db" answers after a promise. */
function deps(options: { quota?: boolean; blocked?: number | null; async?: boolean } = {}) {
  const failed: string[] = [];
  const d: AccessDeps = {
    auth: {
      check(key: string | null): AuthResult | Promise<AuthResult> {
        if (key === null) return { ok: false, failure: 'missing_api_key' };
        if (key === 'down') return { ok: false, failure: 'service_unavailable' };
        const result: AuthResult =
          key === 'good' || key === 'DEMO_KEY'
            ? { ok: true, principal: demo }
            : { ok: false, failure: 'invalid_api_key' };
        return options.async ? Promise.resolve(result) : result;
      },
      knownGood: (key) => key === 'good',
    },
    limits: {
      consume: () =>
        options.async
          ? Promise.resolve(decision(options.quota ?? true))
          : decision(options.quota ?? true),
    },
    failedAuth: { blocked: () => options.blocked ?? null, fail: (ip) => void failed.push(ip) },
  };
  return { d, failed };
}

const build = (d: AccessDeps) => {
  const memo = createMemo(4);
  let sync: boolean | undefined;
  const h = handlerOf(
    (ctx) => target(ctx, { maxUrlBytes: 4096, memo }),
    (ctx) => {
      const r = access(ctx, d);
      sync = typeof r === 'boolean';
      return r;
    },
  );
  return { ...h, synchronous: () => sync };
};

describe('access step', () => {
  it('refuses a key in the query before looking at any key', async () => {
    const { handle } = build(deps().d);
    const r = await send(handle, {
      url: '/v1/registry/assets?api_key=abc',
      headers: { 'x-api-key': 'good' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toContain('(found "api_key")');
  });

  it('answers a missing key 401 with WWW-Authenticate from the catalogue', async () => {
    const { handle } = build(deps().d);
    const r = await send(handle, '/v1/registry/assets');
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="Tokenized Asset Intelligence API"');
    expect(r.json().code).toBe('missing_api_key');
  });

  it('counts an invalid key against the address', async () => {
    const { d, failed } = deps();
    const r = await send(build(d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'bad' },
      remoteAddress: '2001:db8::1',
    });
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(failed).toEqual(['2001:db8:0:0::/64']);
  });

  it('answers an unverifiable key 503 with Retry-After 5', async () => {
    const r = await send(build(deps().d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'down' },
    });
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
  });

  it('blocks an address trying new keys, but not a key known good', async () => {
    const { d } = deps({ blocked: 240 });
    const blocked = await send(build(d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'new' },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('240');
    expect(blocked.json().detail).toBe('Too many invalid keys from this address; retry in 240 s.');
    const known = await send(build(d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'good' },
    });
    expect(known.statusCode).toBe(PASSED);
  });

  it('refuses a blocked address before its new key is looked up', async () => {
    const { d } = deps({ blocked: 240 });
    const looked: (string | null)[] = [];
    const check = d.auth.check.bind(d.auth);
    d.auth.check = (key) => (looked.push(key), check(key));
    const r = await send(build(d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'new' },
    });
    expect(r.statusCode).toBe(429);
    expect(looked).toEqual([]);
    await send(build(d).handle, { url: '/v1/registry/assets', headers: { 'x-api-key': 'good' } });
    expect(looked).toEqual(['good']);
  });

  it('passes with RateLimit headers and the principal, synchronously when nothing waits', async () => {
    const b = build(deps().d);
    const r = await send(b.handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'good' },
    });
    expect(r.statusCode).toBe(PASSED);
    expect(r.headers['ratelimit-policy']).toBe('"demo";q=10;w=60');
    expect(r.headers['ratelimit']).toBe('"demo";r=9;t=42');
    expect(r.json().principal).toEqual(demo);
    expect(b.synchronous()).toBe(true);
  });

  it('waits for a key or quota that is not known in memory', async () => {
    const b = build(deps({ async: true }).d);
    const r = await send(b.handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'good' },
    });
    expect(r.statusCode).toBe(PASSED);
    expect(b.synchronous()).toBe(false);
  });

  it('answers a used-up quota 429 with Retry-After and the policy named', async () => {
    const r = await send(build(deps({ quota: false }).d).handle, {
      url: '/v1/registry/assets',
      headers: { 'x-api-key': 'good' },
    });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('42');
    expect(r.json().detail).toBe('The demo quota is used up; retry in 42 s.');
  });
});
