// Issue #25 item 4: a key placed anywhere in a URL is refused and never repeated (not in the
// answer, not in the access log, which shows it redacted), and two different keys in
// X-API-Key and Authorization: Bearer are refused with their own code instead of one being
// picked silently. Against a real server process and its real log output.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdge, upstreamsFor } from '../helpers/nginx.ts';
import { expectProblem } from '../helpers/schemas.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

let s: TestServer;
let key: string;
let other: string;
beforeAll(async () => {
  s = await startServer();
  const make = async () =>
    JSON.parse(
      (await keysTool(s.env, 'create', '--tier', 'enterprise', '--owner', 'K', '--json')).stdout,
    ).key as string;
  key = await make();
  other = await make();
});
afterAll(() => s?.stop());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a key in the URL', () => {
  it('is refused wherever it sits, never echoed, and logged redacted', async () => {
    const encoded = key.replace('_', '%5F');
    const targets = [
      `/v1/registry/asset/${key}`,
      `/${key}`,
      `/docs/${key}/x`,
      `/v1/registry/asset?tfin=${key}`,
      `/v1/registry/assets?q=${encoded}`,
      `/v1/${encoded}`,
    ];
    for (const target of targets) {
      const res = await raw(`${s.url}${target}`);
      expect(res.status, target).toBe(400);
      const body = res.body.toString();
      expect(body).not.toContain(key.slice(9));
      expect(JSON.parse(body).code).toBe('api_key_in_query');
      expect(Object.values(res.headers).join(' ')).not.toContain(key.slice(9));
    }
    const res = await fetch(`${s.url}/v1/registry/asset/${key}`, {
      headers: { 'x-api-key': 'DEMO_KEY' },
    });
    await expectProblem(res, 400, 'api_key_in_query');
    // Access lines are written in batches, at least every second.
    await sleep(1500);
    const out = s.output();
    expect(out).not.toContain(key.slice(9));
    expect(out).toContain('"path":"/v1/registry/asset/tai_live_[redacted]"');
  });
});

describeNeeding('nginx')('a key in the URL at the edge', () => {
  it('is refused through nginx and never reaches the edge’s access log', async () => {
    const token = 'key-leaks-edge-token-0123456789abcdefghijkl';
    const behind = await startServer({
      EDGE_AUTH_TOKEN: token,
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    });
    const edge = await startEdge({
      TAI_DIST_CLIENT: path.resolve('dist', 'client'),
      TAI_UPSTREAMS: upstreamsFor([behind.port]),
      TAI_EDGE_TOKEN: token,
    });
    try {
      for (const target of [
        `/v1/registry/asset/${key}`,
        `/v1/registry/assets?q=${key}`,
        `/v1/${key.replace('_', '%5F')}`,
      ]) {
        const res = await raw(`${edge.url}${target}`, {
          headers: { referer: `https://example.test/?k=${key}` },
        });
        expect(res.status, target).toBe(400);
        expect(res.body.toString()).not.toContain(key.slice(9));
      }
      expect((await raw(`${edge.url}/v1/registry/assets`)).status).toBe(200);
      await edge.stop(); // nginx writes its log lines as they happen; stopping flushes nothing left
      const log = readFileSync(path.join(edge.prefix, 'tai-edge.access.log'), 'utf8');
      expect(log.split('\n').filter(Boolean)).toHaveLength(4);
      expect(log).not.toContain(key.slice(9));
      expect(log).toContain('GET [withheld: the URL held an API key]');
      expect(log).toContain('"GET /v1/registry/assets HTTP/1.1" 200');
    } finally {
      await edge.stop();
      await behind.stop();
    }
  });
});

describe('two credentials', () => {
  it('X-API-Key with a different Bearer key is a 400 conflicting_credentials', async () => {
    const res = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': key, authorization: `Bearer ${other}` },
    });
    await expectProblem(res, 400, 'conflicting_credentials');
    // DEMO_KEY with a subscription key is two credentials as well.
    const demo = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': 'DEMO_KEY', authorization: `Bearer ${key}` },
    });
    await expectProblem(demo, 400, 'conflicting_credentials');
  });

  it('the same key in both, or either alone, is answered', async () => {
    for (const headers of [
      { 'x-api-key': key, authorization: `Bearer ${key}` },
      { 'x-api-key': key },
      { authorization: `Bearer ${key}` },
      // An Authorization header of another scheme carries no key to conflict with.
      { 'x-api-key': key, authorization: 'Basic dXNlcjpwYXNz' },
    ]) {
      const res = await fetch(`${s.url}/v1/registry/assets`, { headers });
      expect(res.status, JSON.stringify(Object.keys(headers))).toBe(200);
    }
  });
});
