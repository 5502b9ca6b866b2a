// Issue #15: CSV (RFC 4180) and NDJSON representations of the three dataset operations, by
// Accept or format=, prebuilt for the unfiltered views (own ETags, precompressed), computed with
// the same filters and order as the JSON otherwise. Over real HTTP; CSV checked against the
// documented columns (the OpenAPI document), NDJSON records against the JSON answer's.
import { parse } from 'csv-parse/sync';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, expectSchema } from '../helpers/schemas.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  raw(server.url + path, { headers });
const getJson = async <T>(path: string): Promise<T> =>
  (await (await fetch(server.url + path, { headers: DEMO })).json()) as T;

const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
const OPS = [
  {
    path: '/v1/registry/assets',
    records: (b: Body) => b.data as Rec[],
    schema: 'v1/registry-assets.schema.json',
    json: '/v1/registry/assets?limit=500',
  },
  {
    path: '/v1/market/stablecoins',
    records: (b: Body) => (b.data as { stablecoins: Rec[] }).stablecoins,
    schema: 'v1/market-stablecoins.schema.json',
    json: '/v1/market/stablecoins',
  },
  {
    path: '/v1/compliance/mica-status',
    records: (b: Body) => (b.data as { member_states: Rec[] }).member_states,
    schema: 'v1/compliance-mica-status.schema.json',
    json: '/v1/compliance/mica-status',
  },
] as const;
type Rec = Record<string, unknown>;
interface Body {
  data: unknown;
  meta: Rec;
}

/** The documented columns of an operation: the CSV example of its 200 response. */
async function documentedColumns(path: string): Promise<string[]> {
  const doc = await getJson<{
    paths: Record<
      string,
      { get: { responses: { '200': { content: Record<string, { example?: string }> } } } }
    >;
  }>('/openapi.json');
  const example = doc.paths[path]!.get.responses['200'].content['text/csv']!.example!;
  return example.trimEnd().split(',');
}

/** A record's value at a documented column (dotted JSON path), as the CSV writes it. */
function cell(record: Rec, column: string): string {
  let v: unknown = record;
  for (const k of column.split('.')) v = v === null || v === undefined ? v : (v as Rec)[k];
  if (v === null || v === undefined) return '';
  if (Array.isArray(v))
    return v.map((x) => (x && typeof x === 'object' ? (x as Rec)['short_name'] : x)).join(';');
  return String(v);
}

function csvRows(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return parse(text, { relax_column_count: false }) as string[][];
}

describe('CSV', () => {
  for (const op of OPS) {
    it(`${op.path}: Accept: text/csv gives the documented columns and one row per record, as in JSON`, async () => {
      const res = await get(op.path, { accept: 'text/csv' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(CSV_TYPE);
      expect(res.headers['vary']).toBe('Accept, Accept-Encoding');
      const rows = csvRows(res.body.toString('utf8'));
      const columns = await documentedColumns(op.path);
      expect(rows[0]).toEqual(columns);
      const json = await getJson<Body>(op.json);
      expectSchema(op.schema, json);
      const records = op.records(json);
      expect(rows.length - 1).toBe(records.length);
      records.forEach((r, i) => {
        const row = rows[i + 1]!;
        columns.forEach((c, j) => {
          // Names are checked through the path, lists and nested composites through the join.
          if (c === 'competent_authorities') {
            expect(row[j]).toBe((r[c] as Rec[]).map((x) => x['short_name']).join(';'));
          } else expect(row[j], `${c} of record ${i}`).toBe(cell(r, c));
        });
      });
      // format=csv is the same representation.
      const byParam = await get(`${op.path}?format=csv`);
      expect(byParam.body.equals(res.body)).toBe(true);
      expect(byParam.headers['etag']).toBe(res.headers['etag']);
    });
  }

  it('has its own ETag, precompressed codings, 304 and the JSON unaffected on the same target', async () => {
    const json = await get('/v1/registry/assets');
    const csv = await get('/v1/registry/assets', { accept: 'text/csv' });
    expect(csv.headers['etag']).not.toBe(json.headers['etag']);
    const br = await get('/v1/registry/assets', { accept: 'text/csv', 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(csv.body)).toBe(true);
    expect(br.headers['etag']).toMatch(/-br"$/);
    const again = await get('/v1/registry/assets', {
      accept: 'text/csv',
      'if-none-match': csv.headers['etag'] as string,
    });
    expect(again.status).toBe(304);
    expect(again.headers['vary']).toBe('Accept, Accept-Encoding');
    // The remembered target still answers JSON to a JSON client, and CSV to a CSV client.
    const json2 = await get('/v1/registry/assets', { accept: 'application/json' });
    expect(json2.headers['content-type']).toBe('application/json');
    expect(json2.body.equals(json.body)).toBe(true);
    const csv2 = await get('/v1/registry/assets', {
      accept: 'text/csv;q=0.9, application/json;q=0.5',
    });
    expect(csv2.body.equals(csv.body)).toBe(true);
    expect((await get('/v1/registry/assets', { accept: '*/*' })).headers['content-type']).toBe(
      'application/json',
    );
    // A type the operation does not answer with is refused (406), not silently JSON.
    const html = await get('/v1/registry/assets', { accept: 'text/html' });
    expect(html.status).toBe(406);
    expect(html.headers['content-type']).toBe('application/problem+json');
  });

  it('applies the same filters and order as JSON, and carries every matching record', async () => {
    const q = 'asset_class=DEBT&sort=-risk';
    const json = await getJson<{ data: { tfin: string }[]; meta: { total: number } }>(
      `/v1/registry/assets?${q}&limit=500`,
    );
    const res = await get(`/v1/registry/assets?${q}&format=csv`);
    expect(res.status).toBe(200);
    const rows = csvRows(res.body.toString('utf8'));
    expect(rows.slice(1).map((r) => r[0])).toEqual(json.data.map((d) => d.tfin));
    expect(rows.length - 1).toBe(json.meta.total);
    const byAccept = await get(`/v1/registry/assets?${q}`, { accept: 'text/csv' });
    expect(byAccept.body.equals(res.body)).toBe(true);
    // Filtered exports are the prebuilt records, sliced: the same records as the JSON page's.
    const ndjson = await get(`/v1/registry/assets?${q}&format=ndjson`);
    const lines = ndjson.body.toString('utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(json.data);
    const eur = csvRows(
      (await get('/v1/market/stablecoins?peg_currency=EUR&format=csv')).body.toString(),
    );
    expect(eur.slice(1).every((r) => r[eur[0]!.indexOf('peg_currency')] === 'EUR')).toBe(true);
    const de = csvRows(
      (await get('/v1/compliance/mica-status?member_state=de&format=csv')).body.toString(),
    );
    expect(de.map((r) => r[0])).toEqual(['iso', 'DE']);
  });

  it('refuses paging and include=history, which have no CSV form', async () => {
    for (const q of [
      '/v1/registry/assets?format=csv&limit=10',
      '/v1/market/stablecoins?format=csv&include=history',
    ]) {
      await expectProblem(await fetch(server.url + q, { headers: DEMO }), 400, 'invalid_parameter');
    }
    await expectProblem(
      await fetch(`${server.url}/v1/registry/assets?format=xml`, { headers: DEMO }),
      400,
      'invalid_parameter',
    );
    await expectProblem(
      await fetch(`${server.url}/v1/compliance/mica-status?member_state=CH&format=csv`, {
        headers: DEMO,
      }),
      404,
      'member_state_not_found',
    );
  });
});

describe('NDJSON', () => {
  for (const op of OPS) {
    it(`${op.path}: one record a line, equal to the JSON answer's records`, async () => {
      const res = await get(op.path, { accept: 'application/x-ndjson' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson');
      const text = res.body.toString('utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Rec);
      const json = await getJson<Body>(op.json);
      expect(lines).toEqual(op.records(json));
      expect((await get(`${op.path}?format=ndjson`)).body.equals(res.body)).toBe(true);
    });
  }

  it('keeps include=history and the filters', async () => {
    const res = await get('/v1/market/stablecoins?include=history&peg_currency=USD', {
      accept: 'application/x-ndjson',
    });
    const lines = res.body
      .toString()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { peg_currency: string; market_cap: Rec });
    const json = await getJson<{ data: { stablecoins: unknown[] } }>(
      '/v1/market/stablecoins?include=history&peg_currency=USD',
    );
    expect(lines).toEqual(json.data.stablecoins);
    expect(
      lines.every((l) => l.peg_currency === 'USD' && Array.isArray(l.market_cap['history'])),
    ).toBe(true);
  });
});
