// Issue #15: a bulk body too large to hold (the NDJSON of a 100,000-asset registry is ~200 MB) is
// streamed from its built file, with the same ETag, codings and conditional answers as a body held
// in memory. The built (small) files are loaded with the threshold at 0, and served over real HTTP.
// Issue #37: so is a large dataset view (the unfiltered registry list, 334 MB at 100,000 assets),
// with the same signature.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkFile } from '../../src/api/bulk.ts';
import { bulkLines } from '../../src/representation/bulk-lines.ts';
import { loadPrebuilt } from '../../src/representation/prebuilt.ts';
import { sendPrecomputed } from '../../src/representation/respond.ts';
import { responseSigner } from '../../src/representation/response-signer.ts';
import { raw } from '../helpers/server.ts';

const streamed = loadPrebuilt('dist', path.resolve('build/dataset.json'), {
  bulkInMemoryBytes: 0,
  viewInMemoryBytes: 0,
});
const held = loadPrebuilt('dist', path.resolve('build/dataset.json'));
const signer = responseSigner(
  { privateKey: generateKeyPairSync('ed25519').privateKey, kid: 'k1', jwks: { keys: [] } },
  { version: held.core.dataset_version, builtAt: '2026-11-22T10:00:00Z' },
);
const route = '/v1/registry/assets';
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const source = req.url!.endsWith('/streamed') ? streamed : held;
    if (req.url!.startsWith('/view'))
      sendPrecomputed(req, res, { requestId: 'x', headers: [], signer }, source.views.get(route)!, {
        cacheControl: 'private',
        vary: 'Accept',
      });
    else
      sendPrecomputed(req, res, { requestId: 'x', headers: [] }, source.bulk.get(route)!.ndjson, {
        cacheControl: 'private',
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bulk bodies above the in-memory threshold', () => {
  it('are streamed from the file, byte for byte, with the in-memory ETags and codings', async () => {
    expect(streamed.bulk.get(route)!.ndjson.fileFor).toBeDefined();
    expect(held.bulk.get(route)!.ndjson.fileFor).toBeUndefined();
    const file = readFileSync(path.join('dist', 'client', bulkFile(route, 'ndjson')));
    for (const encoding of ['identity', 'gzip', 'br']) {
      const a = await raw(`${url}/streamed`, { headers: { 'accept-encoding': encoding } });
      const b = await raw(`${url}/held`, { headers: { 'accept-encoding': encoding } });
      expect(a.status).toBe(200);
      expect(a.body.equals(b.body), encoding).toBe(true);
      expect(a.headers['etag']).toBe(b.headers['etag']);
      expect(a.headers['content-length']).toBe(String(a.body.length));
      expect(a.headers['content-encoding']).toBe(b.headers['content-encoding']);
      if (encoding === 'gzip') expect(gunzipSync(a.body).equals(file)).toBe(true);
      if (encoding === 'identity') expect(a.body.equals(file)).toBe(true);
    }
    const etag = (await raw(`${url}/streamed`)).headers['etag'] as string;
    expect((await raw(`${url}/streamed`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await raw(`${url}/streamed`, { method: 'HEAD' });
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(file.length));
  });

  it('are sliced into the same records from the file as from memory', () => {
    for (const format of ['csv', 'ndjson'] as const) {
      const a = bulkLines(streamed.bulk.get(route)![format], format);
      const b = bulkLines(held.bulk.get(route)![format], format);
      expect(a.count).toBe(streamed.core.registry.rows.length);
      expect(a.header.equals(b.header)).toBe(true);
      for (let i = 0; i < a.count; i++) expect(a.record(i).equals(b.record(i)), `${i}`).toBe(true);
      const whole = Buffer.concat([
        b.header,
        ...Array.from({ length: b.count }, (_, i) => b.record(i)),
      ]);
      expect(whole.equals(held.bulk.get(route)![format].bodyFor('identity'))).toBe(true);
    }
  });
});

describe('a dataset view above the in-memory threshold (the unfiltered registry list)', () => {
  it("is streamed from its file with the held body's bytes, headers and signature", async () => {
    expect(streamed.views.get(route)!.fileFor).toBeDefined();
    expect(held.views.get(route)!.fileFor).toBeUndefined();
    const file = readFileSync(path.join('dist', 'client', ...route.slice(1).split('/')));
    const fields = ['etag', 'content-length', 'content-encoding', 'content-type', 'vary'];
    const signed = ['signature', 'signature-input', 'content-digest'];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const a = await raw(`${url}/view/streamed`, { headers: { 'accept-encoding': encoding } });
      const b = await raw(`${url}/view/held`, { headers: { 'accept-encoding': encoding } });
      expect(a.status).toBe(200);
      expect(a.body.equals(b.body), encoding).toBe(true);
      for (const f of [...fields, ...signed])
        expect(a.headers[f], `${encoding} ${f}`).toBe(b.headers[f]);
      expect(a.headers['signature'], encoding).toBeDefined();
      expect(a.headers['content-length']).toBe(String(a.body.length));
      if (encoding === 'identity') expect(a.body.equals(file)).toBe(true);
    }
    const etag = (await raw(`${url}/view/streamed`)).headers['etag'] as string;
    expect((await raw(`${url}/view/streamed`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const head = await raw(`${url}/view/streamed`, { method: 'HEAD' });
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(file.length));
  });
});
