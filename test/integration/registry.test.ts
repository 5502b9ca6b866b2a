// Endpoints 1 and 2 over real HTTP against the built server; every body checked against the
// published schemas.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
interface ListBody {
  data: {
    tfin: string;
    asset_class: string;
    ledgers: string[];
    validation_level: string;
    risk: { overall: { score: number | null } };
    name: string;
  }[];
  meta: Record<string, unknown> & { total: number; count: number; next_cursor: string | null };
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers: { ...DEMO, ...headers } });

describe('GET /v1/registry/assets', () => {
  it('without parameters answers every record, and at least 30 are verified (validation_level=L1)', async () => {
    const all = (await (await get('/v1/registry/assets')).json()) as ListBody;
    expect(all.data.length).toBe(all.meta.total);
    expect(all.data.length).toBeGreaterThan(100); // more than the former default page
    expect(all.meta.next_cursor).toBeNull();
    const verified = (await (
      await get('/v1/registry/assets?validation_level=L1')
    ).json()) as ListBody;
    expect(verified.data.length).toBeGreaterThanOrEqual(30);
    for (const a of verified.data as unknown as { validation_level: string }[])
      expect(['L1', 'L2', 'L3']).toContain(a.validation_level);
  });

  it('lists assets with risk vectors, MiCA status and graded custody', async () => {
    const res = await get('/v1/registry/assets?limit=500');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as ListBody;
    expectSchema('v1/registry-assets.schema.json', body);
    expect(body.data.length).toBeGreaterThanOrEqual(30);
    expect(body.meta).toMatchObject({
      api_version: 'v1',
      registry_standard: { version: '1.2', published: 'May 2026' },
      methodology: { standard: 'GTDS', version: '2.1' },
      total: body.data.length,
      next_cursor: null,
    });
    for (const a of body.data as unknown as Record<string, Record<string, unknown>>[]) {
      expect(a['custody']!['grade']).toMatch(/^[A-D]$/);
      expect(Object.keys(a['risk']!['vectors'] as object).sort()).toEqual([
        'counterparty',
        'credit',
        'liquidity',
        'operational',
        'regulatory',
        'smart_contract',
      ]);
      expect(a['mica_status']).toBeTypeOf('string');
    }
  });

  it('filters, sorts and pages with a cursor bound to the query', async () => {
    const all = (await (await get('/v1/registry/assets?limit=500')).json()) as ListBody;
    expect(all.meta.total).toBe(all.data.length);
    const debt = (await (
      await get('/v1/registry/assets?asset_class=debt&sort=-risk')
    ).json()) as ListBody;
    expectSchema('v1/registry-assets.schema.json', debt);
    expect(debt.data.length).toBe(all.data.filter((a) => a.asset_class === 'DEBT').length);
    expect(debt.data.every((a) => a.asset_class === 'DEBT')).toBe(true);
    // Records with an unknown factor have no score: last, after the scored ones in order.
    const scores = debt.data.map((a) => a.risk.overall.score);
    const scored = scores.filter((x): x is number => x !== null);
    expect(scores).toEqual([
      ...[...scored].sort((a, b) => b - a),
      ...scores.filter((x) => x === null),
    ]);

    const seen: string[] = [];
    let next: string | null = '';
    while (next !== null) {
      const page = (await (
        await get(`/v1/registry/assets?limit=7${next ? `&cursor=${next}` : ''}`)
      ).json()) as ListBody;
      expect(page.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.data.map((a) => a.tfin));
      next = page.meta.next_cursor;
    }
    expect(seen).toEqual(all.data.map((a) => a.tfin));

    const first = (await (await get('/v1/registry/assets?limit=2')).json()) as ListBody;
    await expectProblem(
      await get(`/v1/registry/assets?limit=3&cursor=${first.meta.next_cursor}`),
      400,
      'invalid_cursor',
    );
  });

  it('matches free text and minimum validation level', async () => {
    const all = (await (await get('/v1/registry/assets')).json()) as ListBody;
    const word = all.data[0]!.name.split(/\s+/)[0]!;
    const found = (await (
      await get(`/v1/registry/assets?q=${encodeURIComponent(word.toLowerCase())}`)
    ).json()) as ListBody;
    expect(found.data.map((a) => a.tfin)).toContain(all.data[0]!.tfin);
    const l2 = (await (await get('/v1/registry/assets?validation_level=L2')).json()) as ListBody;
    expect(l2.data.every((a) => a.validation_level !== 'L1')).toBe(true);
  });

  it('answers unknown, repeated, empty and out-of-range parameters with a 400 that says what is allowed', async () => {
    const unknown = await expectProblem(
      await get('/v1/registry/assets?colour=blue'),
      400,
      'unknown_parameter',
    );
    expect(unknown['allowed']).toEqual(
      expect.arrayContaining([
        'asset_class',
        'ledger',
        'mica_status',
        'jurisdiction',
        'validation_level',
        'q',
        'sort',
        'limit',
        'cursor',
      ]),
    );
    await expectProblem(
      await get('/v1/registry/assets?ledger=ETH&ledger=POL'),
      400,
      'repeated_parameter',
    );
    await expectProblem(await get('/v1/registry/assets?ledger='), 400, 'invalid_parameter');
    await expectProblem(await get('/v1/registry/assets?limit=0'), 400, 'invalid_parameter');
    await expectProblem(await get('/v1/registry/assets?limit=501'), 400, 'invalid_parameter');
    await expectProblem(
      await get('/v1/registry/assets?asset_class=GOLD'),
      400,
      'invalid_parameter',
    );
  });
});

describe('GET /v1/registry/asset', () => {
  it('returns the full profile, with validation level and ISIN mapping, for a case-insensitive TFIN', async () => {
    const list = (await (await get('/v1/registry/assets')).json()) as ListBody;
    for (const { tfin } of list.data) {
      const res = await get(`/v1/registry/asset?tfin=${tfin.toLowerCase()}`);
      expect(res.status, tfin).toBe(200);
      const body = (await res.json()) as { data: Record<string, unknown> };
      expectSchema('v1/registry-asset.schema.json', body);
      expect(body.data['tfin']).toBe(tfin);
      expect(body.data['validation']).toHaveProperty('level');
      expect(body.data['isin_mapping']).toHaveProperty('isin');
      expect(body.data['gtds_compliance']).toHaveProperty('level');
    }
  });

  it('refuses a missing, repeated or malformed tfin with 400, and an unknown one with 404 and hints', async () => {
    await expectProblem(await get('/v1/registry/asset'), 400, 'missing_parameter');
    await expectProblem(await get('/v1/registry/asset?tfin='), 400, 'invalid_parameter');
    await expectProblem(
      await get('/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001&tfin=TFIN-DEBT-ETH-2021-0001'),
      400,
      'repeated_parameter',
    );
    const bad = await expectProblem(
      await get('/v1/registry/asset?tfin=ISIN-US0378331005'),
      400,
      'invalid_parameter',
    );
    expect(String(bad['detail'])).toContain('TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>');
    await expectProblem(
      await get('/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001&x=1'),
      400,
      'unknown_parameter',
    );
    const missing = await expectProblem(
      await get('/v1/registry/asset?tfin=TFIN-DEBT-ETH-2099-0042'),
      404,
      'asset_not_found',
    );
    expect((missing['suggestions'] as string[]).length).toBe(3);
  });

  it('refuses a TFIN with any non-ASCII character (dotless ı, ligature, NBSP, U+3000, BOM), naming it', async () => {
    const cases: [string, string][] = [
      ['tf\u0131n-debt-eth-2021-0001', 'U+0131'],
      ['TFIN-DEBT-ETH-2021-0001\u00a0', 'U+00A0'],
      ['\u3000TFIN-DEBT-ETH-2021-0001', 'U+3000'],
      ['\ufeffTFIN-DEBT-ETH-2021-0001', 'U+FEFF'],
      ['\ufb01', 'U+FB01'],
    ];
    for (const [tfin, cp] of cases) {
      const target = `/v1/registry/asset?tfin=${encodeURIComponent(tfin)}`;
      // Twice: the second answer comes from the remembered target.
      for (let i = 0; i < 2; i++) {
        const body = await expectProblem(await get(target), 400, 'invalid_parameter');
        expect(String(body['detail']), cp).toContain(cp);
      }
    }
    // ASCII in any case still finds the asset.
    expect((await get('/v1/registry/asset?tfin=tfin-debt-eth-2021-0001')).status).toBe(200);
  });

  it('answers unknown TFINs with suggestions from the index', async () => {
    const body = await expectProblem(
      await get('/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0009'),
      404,
      'asset_not_found',
    );
    expect(body['suggestions']).toContain('TFIN-DEBT-ETH-2021-0001');
  });
});

describe('HTTP conventions', () => {
  it('answers If-None-Match with 304 and the same validators, for the list and a lookup', async () => {
    for (const path of ['/v1/registry/assets', '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001']) {
      const first = await raw(server.url + path, { headers: { 'accept-encoding': 'br' } });
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await raw(server.url + path, {
        headers: { 'accept-encoding': 'br', 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['etag']).toBe(etag);
      expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      // The 304 repeats the 200's Vary (the dataset views vary on Accept too: CSV, NDJSON).
      expect(again.headers['vary']).toBe(first.headers['vary']);
      expect(again.headers['vary']).toContain('Accept-Encoding');
    }
  });

  it('negotiates brotli and gzip from precomputed bodies that decode to the identity bytes', async () => {
    const identity = await raw(server.url + '/v1/registry/assets');
    const br = await raw(server.url + '/v1/registry/assets', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    const gz = await raw(server.url + '/v1/registry/assets', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(identity.body.length / 4);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await raw(server.url + '/v1/registry/assets');
    const head = await raw(server.url + '/v1/registry/assets', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['etag']).toBe(get.headers['etag']);
  });

  it('refuses writes with 405 and Allow, and answers CORS preflight without a body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE']) {
      const res = await raw(server.url + '/v1/registry/assets', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
    }
    const pre = await raw(server.url + '/v1/registry/asset', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://client.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/X-API-Key/);
  });

  it('exposes exactly the documented operations: other /v1 paths and build artifacts are 404 problems', async () => {
    await expectProblem(await get('/v1/registry'), 404, 'not_found');
    await expectProblem(await get('/v1/registry/assets.json'), 404, 'not_found');
    await expectProblem(await get('/v1/market/unknown'), 404, 'not_found');
    await expectProblem(await get('/internal/registry-profiles.ndjson'), 404, 'not_found');
    // fetch would resolve the dot segments itself; send the bytes as a client might.
    expect((await raw(server.url + '/v1/registry/%2e%2e/assets')).status).toBe(400);
    expect((await get('//v1//registry/assets/')).status).toBe(200);
  });

  it('sets nosniff, a request id and CORS on every API response', async () => {
    for (const path of ['/v1/registry/assets', '/v1/registry/asset?tfin=bad', '/v1/none']) {
      const res = await get(path);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit');
    }
  });
});
