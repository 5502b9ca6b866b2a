// Both paths answer every operation alike: the server's fast path (FAST_PATH=on) and Astro's
// endpoints (FAST_PATH=off) must send the same status, the same headers (ETag per coding,
// Cache-Control, Vary, Content-Type, Content-Encoding, …) and the same bytes, for every one of
// the five operations and every asset. Only what names the request or the moment may differ:
// X-Request-Id, Date, RateLimit's remaining count and reset, a problem's `instance`; and for
// /v1/system/status (live figures) its ETag, length and values — its body must have the same shape.
// Both run with the same signing key: a body fixed for the release carries the same Content-Digest
// and signature on both; a problem (its `instance`) and the status are signed as made, so there
// only the presence of the three fields is compared.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startServer, type RawResponse, type TestServer } from '../helpers/server.ts';
import { OPERATIONS_TABLE } from '../../src/api/operations.ts';
import { readDataset } from '../../src/dataset/artifact.ts';
import { parityFilters } from '../helpers/parity-filters.ts';

let fast: TestServer;
let astro: TestServer;
/** Astro's built handler alone, in this process: what its endpoints answer for any target. */
let direct: { server: Server; url: string };

type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  locals: object,
) => Promise<void>;

beforeAll(async () => {
  const key = path.join(mkdtempSync(path.join(tmpdir(), 'tai-parity-')), 'signing.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
  [fast, astro] = await Promise.all([
    startServer({ SIGNING_KEY_FILE: key }),
    startServer({ FAST_PATH: 'off', SIGNING_KEY_FILE: key }),
  ]);
  const entry = (await import(pathToFileURL(path.resolve('dist/server/entry.mjs')).href)) as {
    handler: Handler;
  };
  const server = createServer((req, res) => {
    void entry.handler(req, res, () => res.writeHead(404).end(), {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  direct = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});
afterAll(async () => {
  direct?.server.close();
  await Promise.all([fast?.stop(), astro?.stop()]);
});

const dataset = readDataset();
const version = dataset.dataset_version;
const rows = dataset.registry.rows;
const withIsin = rows.find((r) => r.isin)!;

interface Case {
  name: string;
  target: string;
  method?: string;
  headers?: Record<string, string>;
  /** Send If-None-Match with the ETag the fast path gives for the same target. */
  conditional?: boolean;
}

const variants = (path: string, query: string): Case[] => {
  const target = `${path}${query}`;
  return [
    { name: target, target },
    { name: `${target} gzip`, target, headers: { 'accept-encoding': 'gzip' } },
    { name: `${target} br`, target, headers: { 'accept-encoding': 'gzip, deflate, br' } },
    { name: `${target} HEAD`, target, method: 'HEAD' },
    { name: `${target} If-None-Match`, target, conditional: true },
  ];
};

/** Each dataset operation's filtered queries, from the operations table (test/helpers/parity-filters.ts). */
const DATASET_FILTERS = parityFilters(OPERATIONS_TABLE, dataset);

const cases: Case[] = [];
for (const op of OPERATIONS_TABLE.list) {
  if (op.kind === 'dataset') {
    const filters = DATASET_FILTERS.get(op.path)!;
    cases.push(
      ...variants(op.path, ''),
      ...filters.flatMap((filter) => variants(op.path, filter)),
      ...variants(op.path, `?dataset_version=${version}`),
      ...variants(op.path, '?format=ndjson'),
      { name: `${op.path} Accept: text/csv`, target: op.path, headers: { accept: 'text/csv' } },
      ...filters.map((filter) => ({
        name: `${op.path}${filter} Accept: text/csv gzip`,
        target: `${op.path}${filter}`,
        headers: { accept: 'text/csv', 'accept-encoding': 'gzip' },
      })),
      { name: `${op.path}?format=csv`, target: `${op.path}?format=csv` },
      { name: `${op.path} bad parameter`, target: `${op.path}?bogus=1` },
      {
        name: `${op.path} unknown version`,
        target: `${op.path}?dataset_version=2000-01-01.000000000000`,
      },
    );
  }
  if (op.kind === 'lookup') {
    for (const { tfin } of rows) {
      cases.push(
        { name: `lookup ${tfin}`, target: `${op.path}?tfin=${tfin}` },
        {
          name: `lookup ${tfin} br`,
          target: `${op.path}?tfin=${tfin}`,
          headers: { 'accept-encoding': 'br, gzip' },
        },
        {
          name: `lookup ${tfin} gzip`,
          target: `${op.path}?tfin=${tfin}`,
          headers: { 'accept-encoding': 'gzip' },
        },
      );
    }
    const tfin = rows[0]!.tfin;
    cases.push(
      ...variants(op.path, `?tfin=${tfin}`),
      ...variants(op.path, `?tfin=${tfin}&include=history`),
      ...variants(op.path, `?isin=${withIsin.isin}`),
      ...variants(op.path, `?tfin=${tfin}&dataset_version=${version}`),
      { name: 'lookup miss', target: `${op.path}?tfin=TFIN-DEBT-ETH-2099-0001` },
      { name: 'lookup malformed', target: `${op.path}?tfin=nope` },
      { name: 'lookup bad parameter', target: `${op.path}?tfin=${tfin}&bogus=1` },
      { name: 'lookup no selector', target: op.path },
      {
        name: 'lookup miss HEAD',
        target: `${op.path}?tfin=TFIN-DEBT-ETH-2099-0001`,
        method: 'HEAD',
      },
    );
  }
  if (op.kind === 'status') {
    cases.push(
      { name: op.path, target: op.path },
      { name: `${op.path} br`, target: op.path, headers: { 'accept-encoding': 'br' } },
      { name: `${op.path} HEAD`, target: op.path, method: 'HEAD' },
      { name: `${op.path} bad parameter`, target: `${op.path}?bogus=1` },
    );
  }
}

const IGNORED = new Set(['date', 'x-request-id', 'keep-alive']);
const LIVE = new Set(['etag', 'content-length']);
const SIGNED_AS_MADE = new Set(['content-digest', 'signature', 'signature-input']);

function comparable(r: RawResponse, live: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const problem = String(r.headers['content-type']).startsWith('application/problem+json');
  for (const [name, value] of Object.entries(r.headers)) {
    if (IGNORED.has(name)) continue;
    if ((live || problem) && SIGNED_AS_MADE.has(name)) out[name] = '(signed as made)';
    else if (name === 'ratelimit')
      out[name] = String(value)
        .replace(/;r=\d+/, ';r=N')
        .replace(/;t=\d+/, ';t=N');
    else out[name] = live && LIVE.has(name) ? '(live)' : value;
  }
  return out;
}

/** The shape of a JSON value: its keys and the types of its leaves. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shape(v)]),
    );
  return value === null ? 'null' : typeof value;
}

function body(r: RawResponse, live: boolean): unknown {
  if (!r.body.length) return '';
  const type = String(r.headers['content-type'] ?? '');
  if (type.startsWith('application/problem+json')) {
    const problem = JSON.parse(r.body.toString()) as Record<string, unknown>;
    delete problem['instance'];
    return problem;
  }
  if (live && !r.headers['content-encoding']) return shape(JSON.parse(r.body.toString()));
  if (live) return '(live, compressed)';
  return r.body.toString('base64');
}

describe('FAST_PATH=on and FAST_PATH=off answer alike', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const live = c.target.startsWith('/v1/system/status');
    const headers = { ...c.headers };
    if (c.conditional) {
      const etag = (await raw(`${fast.url}${c.target}`)).headers['etag'];
      expect(etag, 'the fast path gives an ETag').toBeDefined();
      headers['if-none-match'] = String(etag);
    }
    const init = { method: c.method ?? 'GET', headers };
    const [a, b] = await Promise.all([
      raw(`${fast.url}${c.target}`, init),
      raw(`${astro.url}${c.target}`, init),
    ]);
    expect({ status: b.status, headers: comparable(b, live) }).toEqual({
      status: a.status,
      headers: comparable(a, live),
    });
    expect(body(b, live)).toEqual(body(a, live));
    // The request id the server set before handing over survives Astro's writing, and names the
    // request in a problem's instance on both paths.
    for (const r of [a, b]) {
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      if (r.body.length && String(r.headers['content-type']).startsWith('application/problem'))
        expect(JSON.parse(r.body.toString())).toMatchObject({
          instance: `urn:uuid:${String(r.headers['x-request-id'])}`,
        });
    }
  });
});

/** The headers an answer decides (the pipeline adds the rest: request id, CORS, CSP, limits). */
const REPRESENTATION = [
  'cache-control',
  'vary',
  'etag',
  'content-type',
  'content-encoding',
  'content-length',
];
const representation = (r: RawResponse) =>
  Object.fromEntries(REPRESENTATION.map((h) => [h, r.headers[h]]));

describe("Astro's endpoints alone answer the dataset operations and lookups as the fast path", () => {
  // With FAST_PATH=off the server still answers the dataset operations itself: here Astro's
  // handler is asked directly, so its side is proved for every target the fast path answers.
  const asked = cases.filter((c) => !c.target.startsWith('/v1/system/status'));
  it.each(asked.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const headers = { ...c.headers };
    if (c.conditional)
      headers['if-none-match'] = String((await raw(`${fast.url}${c.target}`)).headers['etag']);
    const init = { method: c.method ?? 'GET', headers };
    const [a, b] = await Promise.all([
      raw(`${fast.url}${c.target}`, init),
      raw(`${direct.url}${c.target}`, init),
    ]);
    expect({ status: b.status, headers: representation(b) }).toEqual({
      status: a.status,
      headers: representation(a),
    });
    expect(body(b, false)).toEqual(body(a, false));
  });
});
