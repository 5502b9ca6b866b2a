// The edge's authorization cache (deploy/nginx/tai-edge.conf.template, README "The edge's
// authorization cache"), with Debian's nginx and the built server for real: a decision the
// instance marks reusable is reused by nginx without asking it again (counted on the instance's
// /metrics), every request through the edge is still charged exactly once (quota and usage, via
// the edge's charge log read by the instance), a key over its quota or revoked is refused within
// EDGE_AUTH_CACHE_SECONDS (plus KEY_CACHE_MS for a revocation), a cached decision is never used
// for another key with the same public prefix, and no key is ever written to nginx's files.
import { mkdtempSync, readFileSync } from 'node:fs';
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
import { filesUnder, startEdge, type RunningEdge } from '../helpers/nginx.ts';
import { until } from '../helpers/until.ts';
import { startEdgePair } from '../helpers/edge-pair.ts';
import { checksum } from '../../src/access/keys.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const TOKEN = 'edge-cache-test-token-0123456789abcdefghij';
const REUSE_SECONDS = 2;
const KEY_CACHE_MS = 500;
const QUOTA = 30;
const LIST = '/v1/registry/assets';
/** Headers that differ per response by nature. */
const OWN = new Set(['date', 'server', 'connection', 'keep-alive', 'x-request-id', 'ratelimit']);

let server: TestServer;
let edge: RunningEdge;
const others: (TestServer | RunningEdge)[] = [];
const keys: string[] = [];

/** A directory for the charge logs, shared by the edge and the instances of a test. */
const chargeDir = () => mkdtempSync(path.join(tmpdir(), 'tai-edge-charges-'));

async function newKey(): Promise<{ id: string; key: string; display_prefix?: string }> {
  const created = await createKey(server.env, 'institutional', 'Edge');
  keys.push(created.key);
  return created;
}

/** The instance's edge counters (tai_edge_decisions_total, tai_edge_charges_total). */
async function counts(): Promise<{
  decisions: number;
  reusable: number;
  charged: number;
  lost: number;
}> {
  const text = (await raw(`${server.url}/metrics`)).body.toString();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  const reusable = value(/^tai_edge_decisions_total\{reusable="yes"\} (\d+)$/m);
  return {
    reusable,
    decisions: reusable + value(/^tai_edge_decisions_total\{reusable="no"\} (\d+)$/m),
    charged: value(/^tai_edge_charges_total\{result="charged"\} (\d+)$/m),
    lost: value(/^tai_edge_charges_total\{result="lost"\} (\d+)$/m),
  };
}

/** Requests of a key by status class, from the service database (keys tool). */
async function usage(id: string): Promise<Record<string, number>> {
  const out = await keysTool(server.env, 'usage', '--key', id, '--json');
  const rows = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as {
    status_class: string;
    requests: number;
  }[];
  const by: Record<string, number> = {};
  for (const r of rows) by[r.status_class] = (by[r.status_class] ?? 0) + r.requests;
  return by;
}

const via = (url: string, key: string, extra: Record<string, string> = {}) =>
  raw(`${url}${LIST}`, { noKey: true, headers: { 'x-api-key': key, ...extra } });
const comparable = (r: RawResponse) =>
  Object.fromEntries(Object.entries(r.headers).filter(([name]) => !OWN.has(name)));
const remaining = (r: RawResponse) => Number(/;r=(\d+)/.exec(String(r.headers['ratelimit']))?.[1]);

afterAll(async () => {
  await edge?.stop();
  await server?.stop();
  await Promise.all(others.map((o) => o.stop()));
});

describeNeeding('nginx')('the edge’s authorization cache', () => {
  beforeAll(async () => {
    const charges = chargeDir();
    server = await startServer({
      EDGE_AUTH_TOKEN: TOKEN,
      EDGE_CHARGE_DIR: charges,
      EDGE_AUTH_CACHE_SECONDS: String(REUSE_SECONDS),
      KEY_CACHE_MS: String(KEY_CACHE_MS),
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      FLUSH_MS: '200',
      RATE_LIMIT_INSTITUTIONAL: `${QUOTA}/60`,
    });
    edge = await startEdge({
      TAI_DIST_CLIENT: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
      TAI_UPSTREAMS: `server 127.0.0.1:${server.port};`,
      TAI_EDGE_TOKEN: TOKEN,
      TAI_CHARGE_DIR: charges,
    });
  });

  it('reuses a decision without asking the instance, and charges every request exactly once', async () => {
    const { id, key } = await newKey();
    const direct = await via(server.url, key);
    const etag = String(direct.headers.etag);
    const before = await counts();
    // Four representations (identity, br, a 304, CSV), each asked for five times in a row.
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'br' },
      { 'if-none-match': etag },
      { accept: 'text/csv' },
    ];
    const answers: RawResponse[] = [];
    for (const extra of variants)
      for (let i = 0; i < 5; i++) answers.push(await via(edge.url, key, extra));
    const after = await until(
      counts,
      (c) => c.charged - before.charged + c.decisions - before.decisions >= 20,
      'charges',
    );
    const asked = after.decisions - before.decisions;
    // One decision per representation (a second one only if the cached one expired in between).
    expect(asked).toBeGreaterThanOrEqual(4);
    expect(asked).toBeLessThanOrEqual(8);
    expect(after.charged - before.charged).toBe(20 - asked);
    expect(after.lost).toBe(before.lost);
    // Each answer as the instance gives it, with a request id of its own.
    for (const [v, extra] of variants.entries()) {
      const own = await via(server.url, key, extra);
      for (const r of answers.slice(v * 5, v * 5 + 5)) {
        expect(r.status).toBe(own.status);
        const { 'content-length': _edge, ...edgeHeaders } = comparable(r);
        const { 'content-length': _own, ...ownHeaders } = comparable(own);
        expect(edgeHeaders).toEqual(ownHeaders);
        expect(r.body.equals(own.body)).toBe(true);
        expect(r.headers['ratelimit']).toMatch(/^"institutional";r=\d+;t=\d+$/);
      }
    }
    const ids = answers.map((r) => String(r.headers['x-request-id']));
    for (const rid of ids)
      expect(rid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // The quota: 1 + 20 + 4 direct requests so far, so the next one leaves QUOTA - 26.
    expect(remaining(await via(server.url, key))).toBe(QUOTA - 26);
    // Usage: every 200 billed, the 304s apart (metering-billable), all 26 requests in the database.
    const statuses = answers.map((r) => r.status);
    const billed = statuses.filter((s) => s === 200).length + 5;
    const used = await until(
      () => usage(id),
      (u) => (u['2xx'] ?? 0) + (u['3xx'] ?? 0) >= 26,
      'usage',
    );
    expect(used).toEqual({ '2xx': billed, '3xx': 26 - billed });
    // One access line per request, under the request id its answer carried, with the key's prefix.
    const lines = await until(
      async () =>
        server
          .output()
          .split('\n')
          .filter((l) => l.includes('"msg":"request"')),
      (ls) => ids.every((rid) => ls.some((l) => l.includes(`"req_id":"${rid}"`))),
      'access lines',
    );
    for (const rid of ids) {
      const mine = lines.filter((l) => l.includes(`"req_id":"${rid}"`));
      expect(mine).toHaveLength(1);
      expect(JSON.parse(mine[0]!)).toMatchObject({ path: LIST, key_prefix: key.slice(0, 15) });
    }
  });

  it('never uses a cached decision for another key with the same public prefix', async () => {
    const { key } = await newKey();
    expect((await via(edge.url, key)).status).toBe(200);
    // A well-formed key with the same first 15 characters: not a key of the service.
    const body = `${key.slice(0, 15)}${'x'.repeat(21)}`.slice(0, 36 - 6);
    const lookalike = body + checksum(body);
    expect(lookalike.slice(0, 15)).toBe(key.slice(0, 15));
    const before = await counts();
    const refused = await via(edge.url, lookalike);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString()).code).toBe('invalid_api_key');
    // And the real key is still served from its decision.
    expect((await via(edge.url, key)).status).toBe(200);
    const after = await until(
      counts,
      (c) => c.charged > before.charged || c.decisions > before.decisions + 1,
      'charge',
    );
    expect(after.lost).toBe(before.lost);
  });

  it(`refuses a key over its quota within ${REUSE_SECONDS} s`, async () => {
    const { id, key } = await newKey();
    const sent: { at: number; status: number }[] = [];
    let overAt = Infinity;
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      const at = Date.now();
      const r = await via(edge.url, key);
      sent.push({ at, status: r.status });
      if (sent.length === QUOTA + 1) overAt = Date.now();
      // Six requests past the bound, however long a request takes on a loaded machine.
      if (sent.filter((s) => s.at > overAt + REUSE_SECONDS * 1000).length > 5) break;
      await new Promise((r) => setTimeout(r, 40));
    }
    const late = sent.filter((s) => s.at > overAt + REUSE_SECONDS * 1000);
    expect(late.length).toBeGreaterThan(5);
    const timeline = sent.map((s) => `${s.at - overAt}:${s.status}`).join(' ');
    expect(
      late.every((s) => s.status === 429),
      timeline,
    ).toBe(true);
    expect(sent.slice(0, QUOTA).every((s) => s.status === 200)).toBe(true);
    // Every 200 served is billed, the ones past the quota included (counted, never free).
    const served = sent.filter((s) => s.status === 200).length;
    const used = await until(
      () => usage(id),
      (u) => (u['2xx'] ?? 0) >= served,
      'usage',
    );
    expect(used['2xx']).toBe(served);
  });

  it(`refuses a revoked key within ${REUSE_SECONDS} s plus KEY_CACHE_MS`, async () => {
    const { id, key } = await newKey();
    expect((await via(edge.url, key)).status).toBe(200);
    const revoked = await keysTool(server.env, 'revoke', id);
    expect(revoked.code).toBe(0);
    const revokedAt = Date.now();
    const sent: { at: number; status: number }[] = [];
    const bound = revokedAt + REUSE_SECONDS * 1000 + KEY_CACHE_MS;
    // Until six requests past the bound, however long a request takes on a loaded machine.
    while (sent.filter((s) => s.at > bound).length <= 5 && Date.now() < bound + 30_000) {
      const at = Date.now();
      sent.push({ at, status: (await via(edge.url, key)).status });
      await new Promise((r) => setTimeout(r, 50));
    }
    const late = sent.filter((s) => s.at > bound);
    expect(late.length).toBeGreaterThan(5);
    const timeline = sent.map((s) => `${s.at - revokedAt}:${s.status}`).join(' ');
    expect(
      late.every((s) => s.status === 401),
      timeline,
    ).toBe(true);
  });

  it('never writes a key to the cache, the logs or anything else of nginx’s', async () => {
    const files = filesUnder(edge.prefix);
    const cached = files.filter((f) => f.includes(`${path.sep}auth-cache${path.sep}`));
    // The cache holds decisions (so the test looks where keys could be), by public prefix only.
    expect(cached.length).toBeGreaterThan(0);
    const all = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
    expect(all).toContain(keys[0]!.slice(0, 15));
    expect(keys.length).toBeGreaterThan(3);
    for (const key of keys)
      expect(all.includes(key.slice(15)), 'a key in nginx’s files').toBe(false);
    expect(edge.errors()).not.toMatch(/\[(emerg|alert|crit|error)\]/);
  });
});

const TEST_REDIS_URL = process.env['TEST_REDIS_URL'];

describeNeeding('nginx', 'redis')('the edge’s charges with two instances sharing Redis', () => {
  it('each reads its own charge log, and the key’s one quota counts every request once', async () => {
    const charges = chargeDir();
    // Each instance reads its own charge log in the shared directory.
    const { instances: pair, edge: front } = await startEdgePair({
      token: TOKEN,
      redisUrl: TEST_REDIS_URL!,
      env: {
        EDGE_CHARGE_DIR: charges,
        FLUSH_MS: '200',
        RATE_LIMIT_INSTITUTIONAL: '25/60',
      },
      edgeVars: { TAI_CHARGE_DIR: charges },
    });
    others.push(...pair, front);
    const { key } = await createKey(pair[0]!.env, 'institutional', 'Pair');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await via(front.url, key)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const asked = async () => {
      let decisions = 0;
      let charged = 0;
      for (const p of pair) {
        const text = (await raw(`${p.url}/metrics`)).body.toString();
        for (const m of text.matchAll(/^tai_edge_decisions_total\{[^}]*\} (\d+)$/gm))
          decisions += Number(m[1]);
        charged += Number(/^tai_edge_charges_total\{result="charged"\} (\d+)$/m.exec(text)?.[1]);
      }
      return { decisions, charged };
    };
    const { decisions, charged } = await until(
      asked,
      (c) => c.decisions + c.charged >= 20,
      'charges',
    );
    expect(decisions + charged).toBe(20);
    expect(decisions).toBeLessThan(20);
    // 20 spent of the key's 25 in Redis, whichever instance decided or was charged: asked
    // alternately of both instances, exactly 5 more are answered (leases included).
    const more: number[] = [];
    for (let i = 0; i < 30; i++) more.push((await via(pair[i % 2]!.url, key)).status);
    expect(
      more.filter((st) => st === 200),
      more.join(' '),
    ).toHaveLength(5);
  });
});
