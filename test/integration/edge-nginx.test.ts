// The edge (deploy/nginx/tai-edge.conf.template) with Debian's nginx for real, in front of a real
// instance: every answer through the edge is compared with the instance's own for the same
// request (status, body bytes, headers), and keys, quotas, metering, 304s, CORS and errors
// behave as without the edge. nginx sends the dataset files itself; the service decides.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createKey,
  keysTool,
  raw,
  startServer,
  type RawResponse,
  type TestServer,
} from '../helpers/server.ts';
import { startEdge, type RunningEdge } from '../helpers/nginx.ts';
import { startEdgePair } from '../helpers/edge-pair.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const TOKEN = 'edge-test-token-0123456789abcdefghijklmnop';
const VIEWS = ['/v1/registry/assets', '/v1/market/stablecoins', '/v1/compliance/mica-status'];
/** Headers that differ per response or per server by nature. */
const OWN = new Set(['date', 'server', 'connection', 'keep-alive', 'x-request-id', 'ratelimit']);

let server: TestServer;
let edge: RunningEdge;
const pairs: TestServer[] = [];
const edges: RunningEdge[] = [];
afterAll(async () => {
  await Promise.all([edge, ...edges].map((e) => e?.stop()));
  await Promise.all([server, ...pairs].map((s) => s?.stop()));
});
/* eslint-disable @typescript-eslint/no-explicit-any */

const comparable = (r: RawResponse) =>
  Object.fromEntries(Object.entries(r.headers).filter(([name]) => !OWN.has(name)));
const problem = (r: RawResponse) => {
  const { instance, ...rest } = JSON.parse(r.body.toString());
  expect(instance).toBe(`urn:uuid:${String(r.headers['x-request-id'])}`);
  return rest;
};

/** The same request to the instance and through the edge. */
async function both(target: string, init: Parameters<typeof raw>[1] = {}) {
  const direct = await raw(`${server.url}${target}`, init);
  const viaEdge = await raw(`${edge.url}${target}`, init);
  return { direct, viaEdge };
}

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];

describeNeeding('nginx', 'redis')('the edge in front of two instances sharing Redis', () => {
  it('balances over the upstream group and counts one quota for both', async () => {
    const { instances: pair, edge: front } = await startEdgePair({
      token: TOKEN,
      redisUrl: TEST_REDIS_URL!,
      env: { RATE_LIMIT_DEMO: '10/60' },
    });
    pairs.push(...pair);
    edges.push(front);
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await raw(`${front.url}${i % 3 === 0 ? '/v1/registry/assets' : '/v1/system/status'}`))
          .status,
      );
    expect(statuses.filter((st) => st === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Both instances answered (round robin), each logging its share of the requests.
    for (const s of pair) {
      for (let i = 0; i < 50 && !/"msg":"request"/.test(s.output()); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(s.output()).toMatch(/"path":"\/v1\/(registry\/assets|system\/status)"/);
    }
  });
});

describeNeeding('nginx')('the nginx edge', () => {
  beforeAll(async () => {
    server = await startServer({
      EDGE_AUTH_TOKEN: TOKEN,
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      FLUSH_MS: '200',
      RATE_LIMIT_INSTITUTIONAL: '6/60',
    });
    edge = await startEdge({
      TAI_DIST_CLIENT: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
      TAI_UPSTREAMS: `server 127.0.0.1:${server.port};`,
      TAI_EDGE_TOKEN: TOKEN,
    });
  });

  it('sends every dataset in every coding with the service’s bytes, headers and ETags', async () => {
    for (const view of VIEWS)
      for (const method of ['GET', 'HEAD'])
        for (const encoding of ['', 'gzip', 'br', 'gzip, br', 'identity'])
          for (const accept of ['', 'application/json', 'text/csv', 'application/x-ndjson']) {
            const headers: Record<string, string> = {};
            if (encoding) headers['accept-encoding'] = encoding;
            if (accept) headers['accept'] = accept;
            const { direct, viaEdge } = await both(view, { method, headers });
            const what = `${method} ${view} ${encoding} ${accept}`;
            expect(viaEdge.status, what).toBe(200);
            expect(direct.status, what).toBe(200);
            expect(comparable(viaEdge), what).toEqual(comparable(direct));
            expect(viaEdge.body.equals(direct.body), what).toBe(true);
            expect(viaEdge.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
            expect(viaEdge.headers['ratelimit']).toMatch(/^"demo";r=\d+;t=\d+$/);
          }
  });

  it('sends the CSV or NDJSON the client negotiated (Accept or format=), byte for byte', async () => {
    const types = { csv: /^text\/csv/, ndjson: /^application\/x-ndjson/ } as const;
    const cases: [string, string, keyof typeof types][] = [];
    for (const view of VIEWS)
      for (const format of ['csv', 'ndjson'] as const) {
        const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
        cases.push(
          [view, type, format],
          [view, `application/json;q=0.5, ${type}`, format],
          [view, `${type};q=0.9, */*;q=0.1`, format],
          [`${view}?format=${format}`, '', format],
          [`${view}?format=${format}`, 'application/json', format],
        );
      }
    for (const [target, accept, format] of cases)
      for (const method of ['GET', 'HEAD'])
        for (const encoding of ['', 'gzip', 'br']) {
          const headers: Record<string, string> = {};
          if (accept) headers['accept'] = accept;
          if (encoding) headers['accept-encoding'] = encoding;
          const { direct, viaEdge } = await both(target, { method, headers });
          const what = `${method} ${target} ${accept} ${encoding}`;
          expect([what, viaEdge.status]).toEqual([what, 200]);
          expect(direct.status, what).toBe(200);
          expect(String(viaEdge.headers['content-type']), what).toMatch(types[format]);
          expect(viaEdge.headers['vary'], what).toBe('Accept, Accept-Encoding');
          expect(viaEdge.headers['content-encoding'], what).toBe(
            encoding === 'gzip' ? 'gzip' : encoding === 'br' ? 'br' : undefined,
          );
          expect(comparable(viaEdge), what).toEqual(comparable(direct));
          expect(viaEdge.body.equals(direct.body), what).toBe(true);
          if (method === 'GET') expect(viaEdge.body.length, what).toBeGreaterThan(0);
        }
    // A validator of one representation is not another's: 304 for the CSV's own ETag only.
    for (const target of ['/v1/registry/assets', '/v1/registry/assets?format=csv']) {
      const accept = target.includes('?') ? {} : { accept: 'text/csv' };
      const csv = await raw(`${server.url}${target}`, { headers: accept });
      const { direct, viaEdge } = await both(target, {
        headers: { ...accept, 'if-none-match': String(csv.headers.etag) },
      });
      expect([target, viaEdge.status, direct.status]).toEqual([target, 304, 304]);
      const { 'content-length': _length, ...edgeHeaders } = comparable(viaEdge);
      expect(edgeHeaders).toEqual(comparable(direct));
      const json = await both(target.replace('?format=csv', ''), {
        headers: { 'if-none-match': String(csv.headers.etag) },
      });
      expect([json.viaEdge.status, json.direct.status]).toEqual([200, 200]);
      expect(json.viaEdge.body.equals(json.direct.body)).toBe(true);
    }
  });

  it('answers If-None-Match with a 304 carrying the same validators', async () => {
    for (const encoding of ['', 'gzip', 'br']) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const first = await raw(`${server.url}/v1/registry/assets`, { headers });
      const etag = String(first.headers.etag);
      const { direct, viaEdge } = await both('/v1/registry/assets', {
        headers: { ...headers, 'if-none-match': `W/"other", ${etag}` },
      });
      expect(viaEdge.status).toBe(304);
      expect(direct.status).toBe(304);
      expect(viaEdge.body.length).toBe(0);
      // nginx states the 200's length on a 304 (RFC 9110 §8.6 allows exactly that).
      const { 'content-length': length, ...edgeHeaders } = comparable(viaEdge);
      expect(Number(length)).toBe(first.body.length);
      expect(edgeHeaders).toEqual(comparable(direct));
      // A stale validator gets the full answer.
      expect(
        (await raw(`${edge.url}/v1/registry/assets`, { headers: { 'if-none-match': '"stale"' } }))
          .status,
      ).toBe(200);
    }
  });

  it('refuses missing and invalid keys with the same problems and WWW-Authenticate', async () => {
    for (const init of [
      { noKey: true },
      { noKey: true, headers: { 'x-api-key': 'tai_live_nope' } },
    ]) {
      const { direct, viaEdge } = await both('/v1/market/stablecoins', init);
      expect(viaEdge.status).toBe(401);
      expect(comparable(viaEdge)).toEqual(comparable(direct));
      expect(problem(viaEdge)).toEqual(problem(direct));
      expect(viaEdge.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    }
  });

  it('proxies everything else to the instances: filters, preflights, methods, unknown paths', async () => {
    const cases: [string, Parameters<typeof raw>[1], number][] = [
      ['/v1/registry/assets?limit=2', {}, 200],
      ['/v1/registry/assets?api_key=DEMO_KEY', {}, 400],
      ['/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001', {}, 200],
      ['/v1/system/status', {}, 200],
      ['/v1/registry/assets', { method: 'POST' }, 405],
      [
        '/v1/registry/assets',
        {
          method: 'OPTIONS',
          headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
        },
        204,
      ],
      ['/v1/nothing', {}, 404],
      ['/v1/registry/assets/', {}, 200],
      // The internal paths, asked for from outside: the service's 404, as for any unknown path.
      ['/_tai/edge-auth', {}, 404],
      ['/_tai_edge_auth', {}, 404],
      ['/_tai_not_modified/v1/registry/assets', {}, 404],
    ];
    for (const [target, init, status] of cases) {
      const { direct, viaEdge } = await both(target, init);
      expect([target, viaEdge.status]).toEqual([target, status]);
      expect(direct.status).toBe(status);
      if (target === '/v1/system/status') continue; // a live snapshot
      if (status >= 400) expect(problem(viaEdge)).toEqual(problem(direct));
      else expect(viaEdge.body.equals(direct.body), target).toBe(true);
      // Every header of the instance's answer, its ETag and Vary included.
      expect(comparable(viaEdge), target).toEqual(comparable(direct));
    }
  });

  it('is the only way to the internal endpoint: the instance wants the token', async () => {
    const ask = (headers: Record<string, string>) =>
      raw(`${server.url}/_tai/edge-auth`, {
        headers: { 'x-original-uri': '/v1/registry/assets', ...headers },
      });
    expect((await ask({})).status).toBe(404);
    expect((await ask({ 'x-tai-edge-token': `${TOKEN}x` })).status).toBe(404);
    const granted = await ask({ 'x-tai-edge-token': TOKEN });
    expect(granted.status).toBe(204);
    expect(granted.headers['x-tai-file']).toBe('/v1/registry/assets');
    expect(granted.body.length).toBe(0);
    // Only the edge's targets: anything else is not the edge's to serve.
    expect(
      (await ask({ 'x-tai-edge-token': TOKEN, 'x-original-uri': '/v1/registry/asset?tfin=x' }))
        .status,
    ).toBe(404);
  });

  it('counts one quota, meters, and logs through the edge as without it', async () => {
    const key = await createKey(server.env, 'institutional', 'Edge');
    const headers = { 'x-api-key': key.key as string };
    const via = (url: string, extra: Record<string, string> = {}) =>
      raw(`${url}/v1/registry/assets`, { noKey: true, headers: { ...headers, ...extra } });
    const answers = [
      await via(edge.url),
      await via(server.url),
      await via(edge.url, { 'accept-encoding': 'br' }),
    ];
    const etag = String(answers[0]!.headers.etag);
    answers.push(await via(edge.url, { 'if-none-match': etag }));
    answers.push(
      await via(edge.url),
      await via(edge.url),
      await via(edge.url),
      await via(server.url),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 304, 200, 200, 429, 429]);
    expect(answers.map((r) => /r=(\d+)/.exec(String(r.headers['ratelimit']))?.[1])).toEqual([
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
      '0',
    ]);
    const refused = answers[6]!;
    expect(refused.headers['ratelimit-policy']).toBe('"institutional";q=6;w=60');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(problem(refused).code).toBe('rate_limited');

    // Metering: billed 2xx, the 304 and the 429s counted apart (edge and direct alike).
    let rows: any[] = [];
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const out = await keysTool(server.env, 'usage', '--key', key.id, '--json');
      rows = JSON.parse(out.stdout.slice(out.stdout.indexOf('[')));
      if (rows.reduce((n, r) => n + r.requests, 0) >= 8) break;
    }
    const byClass = (cls: string) =>
      rows.filter((r) => r.status_class === cls).reduce((n, r) => n + r.requests, 0);
    expect([byClass('2xx'), byClass('3xx'), byClass('4xx')]).toEqual([5, 1, 2]);
    expect(rows.every((r) => r.endpoint === '/v1/registry/assets')).toBe(true);

    // The access log: the original path, the client's address (the edge overwrote a forged
    // X-Forwarded-For), the key's prefix and, for refusals, the problem code.
    const forged = await raw(`${edge.url}/v1/market/stablecoins`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-api-key': 'tai_live_nope' },
      noKey: true,
    });
    const id = String(forged.headers['x-request-id']);
    let line: any;
    for (let i = 0; i < 50 && !line; i++) {
      await new Promise((r) => setTimeout(r, 100));
      line = server
        .output()
        .split('\n')
        .filter((l) => l.includes(id))
        .map((l) => JSON.parse(l))[0];
    }
    expect(line).toMatchObject({
      path: '/v1/market/stablecoins',
      status: 401,
      ip: '127.0.0.1',
      code: 'invalid_api_key',
    });
    const okLine = server
      .output()
      .split('\n')
      .find((l) => l.includes(String(answers[0]!.headers['x-request-id'])));
    expect(JSON.parse(okLine!)).toMatchObject({
      path: '/v1/registry/assets',
      status: 200,
      key_prefix: key.display_prefix ?? expect.any(String),
    });
    expect(edge.errors()).not.toMatch(/\[(emerg|alert|crit)\]/);
  });
});

describeNeeding('nginx')('the nginx edge in front of a signing instance', () => {
  it('sends the files nginx serves with the signature the instance made for their bytes', async () => {
    const key = path.join(mkdtempSync(path.join(tmpdir(), 'tai-edge-key-')), 'signing.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
    const signing = await startServer({
      EDGE_AUTH_TOKEN: TOKEN,
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      SIGNING_KEY_FILE: key,
    });
    pairs.push(signing);
    const front = await startEdge({
      TAI_DIST_CLIENT: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
      TAI_UPSTREAMS: `server 127.0.0.1:${signing.port};`,
      TAI_EDGE_TOKEN: TOKEN,
    });
    edges.push(front);
    const digest = (b: Buffer) => `sha-256=:${createHash('sha256').update(b).digest('base64')}:`;
    for (const view of VIEWS)
      for (const encoding of ['identity', 'gzip', 'br']) {
        const init = { headers: { 'accept-encoding': encoding } };
        const direct = await raw(`${signing.url}${view}`, init);
        const viaEdge = await raw(`${front.url}${view}`, init);
        const what = `${view} ${encoding}`;
        expect(viaEdge.status, what).toBe(200);
        expect(viaEdge.headers['content-digest'], what).toBe(digest(viaEdge.body));
        for (const name of ['content-digest', 'signature-input', 'signature', 'dataset-version'])
          expect(viaEdge.headers[name], `${what} ${name}`).toBe(direct.headers[name]);
      }
    // A refusal the edge writes from the instance's answer: the bytes the signature speaks of.
    const refused = await raw(`${front.url}/v1/registry/assets`, { noKey: true });
    expect(refused.status).toBe(401);
    expect(refused.headers['content-digest']).toBe(digest(refused.body));
  });
});
