// The signed-download step (src/server/signed-downloads.ts) in-process: which requests it answers,
// the URL it hands out (what nginx's secure_link_md5 rebuilds), and its refusals. The URL served
// and checked by the real nginx is test/integration/edge-signed-urls.test.ts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/access/authenticator.ts';
import { target } from '../../../src/server/steps/target.ts';
import { route } from '../../../src/server/steps/route.ts';
import { createMemo } from '../../../src/server/steps/memo.ts';
import { signedDownload, type DownloadDeps } from '../../../src/server/signed-downloads.ts';
import { handlerOf, PASSED, send } from './harness.ts';

const TOKEN = 'signed-download-unit-token-0123456789abcdef';
const NOW = Date.UTC(2026, 11, 7, 12, 0, 0);
const enterprise: Principal = {
  kind: 'key',
  id: '0b6f1a52-4c1e-4d5e-9a55-6f3f7d1c2b10',
  tier: 'enterprise',
  owner: 'Bank',
  displayPrefix: 'tai_live_Ab12Cd',
};

function handler(principal: Principal | null, deps: Partial<DownloadDeps> = {}) {
  return handlerOf(
    (ctx) => target(ctx, { maxUrlBytes: 4096, memo: createMemo(8) }),
    (ctx) => route(ctx, { staticFiles: new Map() }),
    (ctx) => {
      ctx.principal = principal;
    },
    (ctx) =>
      signedDownload(ctx, {
        token: TOKEN,
        seconds: 60,
        release: '20261207T120000-abcdef',
        chargeLog: () => '4321',
        now: () => NOW,
        ...deps,
      }),
  ).handle;
}

describe('the signed-download step', () => {
  it('answers an Enterprise key 303 with a URL whose MD5 is the one nginx rebuilds', async () => {
    const r = await send(handler(enterprise), '/v1/registry/assets?delivery=signed_url&format=csv');
    expect(r.statusCode).toBe(303);
    const location = r.headers.location as string;
    const url = new URL(location, 'http://edge');
    expect(url.pathname).toBe('/downloads/v1/bulk/registry-assets-csv');
    const p = Object.fromEntries(url.searchParams);
    const expires = NOW / 1000 + 60;
    expect(p).toMatchObject({
      id: enterprise.id,
      tier: 'enterprise',
      prefix: 'tai_live_Ab12Cd',
      op: '/v1/registry/assets',
      r: '20261207T120000-abcdef',
      c: '4321',
      expires: String(expires),
    });
    // deploy/nginx/tai-edge.conf.template, secure_link_md5 of location /downloads/.
    const text = `${expires}|${url.pathname}|${p['id']}|${p['tier']}|${p['prefix']}|${p['op']}|${p['r']}|${p['c']}|tai-download ${TOKEN}`;
    expect(p['md5']).toBe(createHash('md5').update(text).digest('base64url'));
    expect(r.json()).toEqual({
      href: location,
      expires_at: '2026-12-07T12:01:00.000Z',
      media_type: 'text/csv; charset=utf-8; header=present',
    });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('names the JSON body by default and every dataset operation’s own files', async () => {
    const json = await send(handler(enterprise), '/v1/market/stablecoins?delivery=signed_url');
    expect(json.headers.location).toMatch(/^\/downloads\/v1\/market\/stablecoins\?/);
    const ndjson = await send(handler(enterprise), {
      url: '/v1/compliance/mica-status?delivery=signed_url',
      headers: { accept: 'application/x-ndjson' },
    });
    expect(ndjson.headers.location).toMatch(
      /^\/downloads\/v1\/bulk\/compliance-mica-status-ndjson\?/,
    );
  });

  it('leaves every other request to the answer', async () => {
    for (const url of [
      '/v1/registry/assets',
      '/v1/registry/assets?format=csv',
      '/v1/registry/asset?tfin=X&delivery=signed_url',
      '/v1/system/status?delivery=signed_url',
    ])
      expect([url, (await send(handler(enterprise), url)).statusCode]).toEqual([url, PASSED]);
  });

  it('refuses another tier 403, a filter or a bad value 400, and a deployment without the edge 404', async () => {
    const institutional: Principal = { ...enterprise, tier: 'institutional' };
    for (const principal of [institutional, { kind: 'demo' } as const]) {
      const r = await send(handler(principal), '/v1/registry/assets?delivery=signed_url');
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'tier_required', status: 403 });
      expect(r.headers.location).toBeUndefined();
    }
    const filtered = await send(handler(enterprise), '/v1/registry/assets?delivery=signed_url&q=x');
    expect(filtered.json()).toMatchObject({
      code: 'unknown_parameter',
      allowed: ['delivery', 'format'],
    });
    const twice = await send(
      handler(enterprise),
      '/v1/registry/assets?delivery=signed_url&delivery=signed_url',
    );
    expect(twice.json().code).toBe('repeated_parameter');
    expect((await send(handler(enterprise), '/v1/registry/assets?delivery=link')).json().code).toBe(
      'invalid_parameter',
    );
    for (const deps of [{ token: undefined }, { chargeLog: () => undefined }]) {
      const r = await send(handler(enterprise, deps), '/v1/registry/assets?delivery=signed_url');
      expect(r.statusCode).toBe(404);
      expect(r.json().detail).toMatch(/no signed download URLs/);
    }
  });
});
