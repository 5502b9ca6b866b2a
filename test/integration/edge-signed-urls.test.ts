// Signed download URLs through the real nginx edge (issue 37, candidate (a); docs/production.md
// "Signed download URLs"): an Enterprise key asks a dataset operation with delivery=signed_url and
// gets a 303 to a short-lived URL that nginx checks (secure_link) and serves itself; the download
// works until the URL expires, a tampered URL is refused, each download is one line in the
// issuing instance's charge log, charged once; any other tier gets a 403 problem; a revoked or
// over-quota key gets no URL; no key reaches nginx's files.
import { readFileSync, existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { filesUnder, startEdge, upstreamsFor, type RunningEdge } from '../helpers/nginx.ts';
import { until } from '../helpers/until.ts';
import { createKey, keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';
import { describeNeeding } from '../helpers/skip-note.ts';
import { refusalDetail } from '../../src/domain/errors.ts';

const TOKEN = 'edge-signed-urls-token-0123456789abcdefghijk';
const LIST = '/v1/registry/assets';
const CLIENT = path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client');
/** Short, so the test sees a URL expire. */
const URL_SECONDS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer;
let edge: RunningEdge;
let charges: string;
const keys: string[] = [];

describeNeeding('nginx')('signed download URLs through the edge', () => {
  beforeAll(async () => {
    charges = mkdtempSync(path.join(tmpdir(), 'tai-signed-charges-'));
    server = await startServer({
      EDGE_AUTH_TOKEN: TOKEN,
      EDGE_CHARGE_DIR: charges,
      EDGE_SIGNED_URL_SECONDS: String(URL_SECONDS),
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      FLUSH_MS: '200',
      KEY_CACHE_MS: '0',
      RATE_LIMIT_ENTERPRISE: '20/60',
    });
    edge = await startEdge({
      TAI_DIST_CLIENT: CLIENT,
      TAI_UPSTREAMS: upstreamsFor([server.port]),
      TAI_EDGE_TOKEN: TOKEN,
      TAI_CHARGE_DIR: charges,
    });
  });
  afterAll(async () => {
    await edge?.stop();
    await server?.stop();
  });

  const enterpriseKey = async (owner: string) => {
    const k = await createKey(server.env, 'enterprise', owner);
    keys.push(k.key);
    return k;
  };
  /** Asks the edge for a signed URL: the 303 and its Location. */
  const ask = async (key: string, query = 'delivery=signed_url', accept?: string) => {
    const r = await raw(`${edge.url}${LIST}?${query}`, {
      noKey: true,
      headers: { 'x-api-key': key, ...(accept ? { accept } : {}) },
    });
    return { r, location: r.headers.location as string | undefined };
  };
  /** The charge log lines naming a key id. */
  const chargeLines = (id: string) => {
    const file = path.join(charges, `charges-${server.port}.log`);
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.includes(` ${id} `))
      : [];
  };
  async function usage(id: string): Promise<Record<string, number>> {
    const out = await keysTool(server.env, 'usage', '--key', id, '--json');
    const rows = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as {
      status_class: string;
      requests: number;
    }[];
    const by: Record<string, number> = {};
    for (const row of rows) by[row.status_class] = (by[row.status_class] ?? 0) + row.requests;
    return by;
  }

  it('hands an Enterprise key a URL the edge serves until it expires, charged once per download', async () => {
    const { id, key } = await enterpriseKey('Bulk buyer');
    const issuedAt = Math.floor(Date.now() / 1000);
    const { r, location } = await ask(key, 'delivery=signed_url&format=csv');
    expect(r.status).toBe(303);
    expect(location).toMatch(/^\/downloads\/v1\/bulk\/registry-assets-csv\?/);
    const body = JSON.parse(r.body.toString()) as { href: string; expires_at: string };
    expect(body.href).toBe(location);
    // The URL names the key by its id and public prefix, never the key itself.
    expect(location).not.toContain(key);
    expect(location).toContain(`id=${id}`);
    const expires = Number(new URL(location!, edge.url).searchParams.get('expires'));
    expect(expires).toBe(Date.parse(body.expires_at) / 1000);
    expect(expires - issuedAt).toBeLessThanOrEqual(URL_SECONDS + 1);
    // The same bytes as the keyed answer, without a key.
    const keyed = await raw(`${edge.url}${LIST}`, {
      noKey: true,
      headers: { 'x-api-key': key, accept: 'text/csv' },
    });
    const downloads = [];
    for (let i = 0; i < 3; i++)
      downloads.push(await raw(`${edge.url}${location}`, { noKey: true }));
    for (const d of downloads) {
      expect(d.status).toBe(200);
      expect(d.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
      expect(d.body.equals(keyed.body)).toBe(true);
    }
    // Each download one line in the charge log, charged once (the 303 is not billed: 3xx).
    await until(
      () => usage(id),
      (u) => (u['2xx'] ?? 0) >= 4,
      'usage',
    );
    await sleep(1000); // a second charge of the same line would land by now
    expect(chargeLines(id)).toHaveLength(3);
    expect((await usage(id))['2xx']).toBe(4); // the keyed CSV + 3 downloads
    // Expired: refused, not charged.
    await sleep(Math.max(0, expires * 1000 + 1100 - Date.now()));
    const late = await raw(`${edge.url}${location}`, { noKey: true });
    expect(late.status).toBe(410);
    expect(late.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(late.body.toString())).toMatchObject({
      code: 'signed_url_expired',
      status: 410,
      detail: refusalDetail('signed_url_expired', {}),
    });
    expect(chargeLines(id)).toHaveLength(3);
  });

  it('gives the JSON body by default and the NDJSON by Accept', async () => {
    const { key } = await enterpriseKey('Formats');
    for (const [accept, type] of [
      [undefined, 'application/json'],
      ['application/x-ndjson', 'application/x-ndjson'],
    ] as const) {
      const { r, location } = await ask(key, 'delivery=signed_url', accept);
      expect(r.status).toBe(303);
      const d = await raw(`${edge.url}${location}`, { noKey: true });
      expect(d.status).toBe(200);
      expect(d.headers['content-type']).toBe(type);
      const keyed = await raw(`${edge.url}${LIST}`, {
        noKey: true,
        headers: { 'x-api-key': key, ...(accept ? { accept } : {}) },
      });
      expect(d.body.equals(keyed.body)).toBe(true);
    }
  });

  it('refuses a tampered URL (403 problem) and charges nothing for it', async () => {
    const { id, key } = await enterpriseKey('Tamperer');
    const { location } = await ask(key, 'delivery=signed_url&format=ndjson');
    const url = new URL(location!, edge.url);
    const other = await createKey(server.env, 'enterprise', 'Someone else');
    const tampered = [
      // Charged to another key, another tier, another operation, later, another file.
      location!.replace(`id=${id}`, `id=${other.id}`),
      location!.replace('tier=enterprise', 'tier=institutional'),
      location!.replace('op=/v1/registry/assets', 'op=/v1/market/stablecoins'),
      location!.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`),
      location!.replace('registry-assets-ndjson', 'registry-assets-csv'),
      location!.replace(/md5=[^&]+/, 'md5=AAAAAAAAAAAAAAAAAAAAAA'),
      `${url.pathname}?${[...url.searchParams]
        .filter(([k]) => k !== 'md5')
        .map(([k, v]) => `${k}=${v}`)
        .join('&')}`,
    ];
    for (const t of tampered) {
      const r = await raw(`${edge.url}${t}`, { noKey: true });
      expect([t, r.status]).toEqual([t, 403]);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(r.body.toString())).toMatchObject({
        code: 'signed_url_invalid',
        status: 403,
        detail: refusalDetail('signed_url_invalid', {}),
      });
    }
    await sleep(500);
    expect(chargeLines(id)).toEqual([]);
    expect(chargeLines(other.id)).toEqual([]);
  });

  it('refuses any other tier with a 403 problem, and takes no filter with delivery=', async () => {
    const { key } = await createKey(server.env, 'institutional', 'Not enterprise');
    for (const k of [key, 'DEMO_KEY']) {
      const { r } = await ask(k);
      expect(r.status).toBe(403);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.headers.location).toBeUndefined();
      const p = JSON.parse(r.body.toString()) as { code: string; detail: string };
      expect(p.code).toBe('tier_required');
      expect(p.detail).toMatch(/Enterprise keys/);
    }
    const { key: enterprise } = await enterpriseKey('Filters');
    const filtered = await ask(enterprise, 'delivery=signed_url&asset_class=FUND');
    expect(filtered.r.status).toBe(400);
    expect(JSON.parse(filtered.r.body.toString())).toMatchObject({
      code: 'unknown_parameter',
      allowed: ['delivery', 'format'],
    });
    const bad = await ask(enterprise, 'delivery=now');
    expect(bad.r.status).toBe(400);
    expect(JSON.parse(bad.r.body.toString()).code).toBe('invalid_parameter');
  });

  it('gives a revoked or over-quota key no new URL', async () => {
    const revoked = await enterpriseKey('Revoked');
    expect((await ask(revoked.key)).r.status).toBe(303);
    expect((await keysTool(server.env, 'revoke', revoked.id)).code).toBe(0);
    const after = await ask(revoked.key);
    expect(after.r.status).toBe(401);
    expect(after.location).toBeUndefined();
    const spent = await enterpriseKey('Spent');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await ask(spent.key)).r.status);
    expect(statuses.slice(0, 20).every((s) => s === 303)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('writes no key into any of nginx’s files', async () => {
    const files = filesUnder(edge.prefix, charges);
    expect(files.length).toBeGreaterThan(2);
    expect(keys.length).toBeGreaterThan(3);
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const k of keys) expect(text.includes(k), `${f} holds a key`).toBe(false);
    }
  });
});
