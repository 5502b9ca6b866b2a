// An operation is one entry in the operations table (src/api/operations.ts) plus its answer: a
// synthetic sixth operation added to the table reaches every place that derives from it (views,
// answers, bulk routes and formats, schema titles, release-manifest links, OpenAPI, the router,
// the fast-path parity test's filters, the typed client's DatasetPath), a path without an entry is
// served nowhere, and no source file but the table writes a path.
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  answerDataset,
  answersByPath,
  OPERATION_ANSWERS,
  type Answer,
  type AnswerState,
} from '../../src/api/answers.ts';
import { serialise } from '../../src/api/bodies.ts';
import { BULK_FORMATS, bulkFile, FORMAT_PARAM, type Column } from '../../src/api/bulk.ts';
import { datasetViews } from '../../src/api/dataset-views.ts';
import {
  OPERATIONS,
  OPERATIONS_TABLE,
  operationsTable,
  type DatasetOperation,
  type Operation,
} from '../../src/api/operations.ts';
import { recordUrl } from '../../src/api/record-urls.ts';
import { memorySource } from '../../src/api/registry-list.ts';
import { generateAll, responseSchemas } from '../../src/authoring/published-schemas.ts';
import { loadData } from '../../src/authoring/load.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { prebuiltBodyPaths } from '../../src/authoring/prebuilt-bodies.ts';
import { RECORD_KINDS } from '../../src/dataset/release-manifest.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { headers } from '../../src/server/steps/headers.ts';
import { createMemo } from '../../src/server/steps/memo.ts';
import { found, route } from '../../src/server/steps/route.ts';
import { target } from '../../src/server/steps/target.ts';
import { datasetPaths, schemaFrom } from '../../clients/typescript/scripts/generate.ts';
import { parityFilters } from '../helpers/parity-filters.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';
import { handlerOf, send } from './steps/harness.ts';
import { operationPathLiterals, sourceFiles } from './operation-paths.ts';

const loaded = await loadData(path.resolve('.'), RELEASE_DATE);
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);

/** The sixth operation: the member states' codes, filtered by a prefix. */
const SYNTHETIC = '/v1/synthetic/states';
const stateRecord = z.object({ iso: z.string() });
const syntheticResponse = z
  .object({ data: z.array(stateRecord), meta: z.object({ count: z.number() }) })
  .meta({ id: 'SyntheticStatesResponse' });
const COLUMNS: Column<{ iso: string }>[] = [{ name: 'iso', value: (r) => r.iso }];
const statesOf = (core: typeof dataset, prefix = '') =>
  core.mica.member_states.filter((s) => s.iso.startsWith(prefix)).map((s) => ({ iso: s.iso }));

const synthetic: DatasetOperation = {
  path: SYNTHETIC,
  operationId: 'listSyntheticStates',
  kind: 'dataset',
  tag: 'Compliance',
  summary: 'Member-state codes',
  description: 'The EU member states’ codes (a test operation).',
  params: () => [
    {
      name: 'prefix',
      description: 'Codes starting with these letters.',
      pattern: /^[A-Z]{1,2}$/,
      format: 'one or two letters',
      normalise: (s) => s.trim().toUpperCase(),
      example: 'D',
    },
    FORMAT_PARAM,
  ],
  response: syntheticResponse,
  errors: ['invalid_parameter', 'not_acceptable'],
  examples: () => ({ prefix: 'D' }),
  // Venues are the stablecoin operation's in the real table: the synthetic one takes them over.
  records: { venues: null },
  // Its JSON body and its records: CSV and NDJSON come from the formats registered once.
  view: ({ dataset: core }) => ({
    json: (values) => {
      const states = statesOf(core as typeof dataset, values['prefix']);
      return { ok: true, text: serialise({ data: states, meta: { count: states.length } }) };
    },
    records: (values) => ({
      ok: true,
      records: statesOf(core as typeof dataset, values['prefix']),
    }),
  }),
  bulk: { columns: COLUMNS, record: 'one member state’s code' },
};

const withoutVenues = (op: Operation): Operation =>
  op.operationId === 'getStablecoinMarket' ? { ...op, records: { stablecoins: 'q' } } : op;
const extended = operationsTable([...OPERATIONS.map(withoutVenues), synthetic]);
const viewsOf = (table = extended) =>
  datasetViews(dataset, memorySource(dataset), undefined, table);
const stateOf = (views: AnswerState['views']): AnswerState =>
  ({ core: dataset, releases: null, views, releaseViews: () => null }) as unknown as AnswerState;
const textOf = (answer: Answer) => {
  if (!answer.ok || !('text' in answer.body)) throw new Error(JSON.stringify(answer));
  return answer.body.text.toString();
};

describe('a synthetic operation added to the table', () => {
  it('gets a view with its parameters, answering JSON, CSV and NDJSON', () => {
    const view = viewsOf().get(SYNTHETIC)!;
    expect(view.specs.map((s) => s.name)).toEqual(['prefix', 'format']);
    const json = view.compute({ prefix: 'D' }, 'json');
    expect(json.ok && JSON.parse(json.text.toString())).toEqual({
      data: [{ iso: 'DE' }, { iso: 'DK' }],
      meta: { count: 2 },
    });
    // The real table's views are untouched.
    expect(viewsOf(OPERATIONS_TABLE).has(SYNTHETIC)).toBe(false);
    expect([...viewsOf().keys()]).toEqual([
      ...OPERATIONS_TABLE.datasets.map((o) => o.path),
      SYNTHETIC,
    ]);
  });

  it('is answered by its answer through the table (parameters checked, formats negotiated)', async () => {
    const answers = answersByPath(extended, {
      ...OPERATION_ANSWERS,
      listSyntheticStates: (request, state, op) => answerDataset(op.path, request, state),
    });
    const state = stateOf(viewsOf());
    const answer = (search: string, accept?: string) =>
      answers.get(SYNTHETIC)!({ search, accept }, state) as Answer;
    expect(textOf(answer('?prefix=d', 'text/csv'))).toBe('iso\r\nDE\r\nDK\r\n');
    expect(textOf(answer('?prefix=F&format=ndjson'))).toBe('{"iso":"FI"}\n{"iso":"FR"}\n');
    const bad = answer('?prefix=123');
    expect(bad.ok || bad.problem.code).toBe('invalid_parameter');
    // Without its answer the table cannot be served.
    expect(() => answersByPath(extended)).toThrow('no answer for listSyntheticStates');
  });

  it('has bulk routes, every format and an unfiltered export, with the formats’ own problems', () => {
    const op = extended.bulk.find((o) => o.path === SYNTHETIC)!;
    expect(BULK_FORMATS.map((f) => bulkFile(op.path, f))).toEqual([
      'v1/bulk/synthetic-states-csv',
      'v1/bulk/synthetic-states-ndjson',
    ]);
    const view = viewsOf().get(SYNTHETIC)!;
    const csv = view.compute({}, 'csv');
    expect(csv.ok && csv.text.toString().split('\r\n')).toHaveLength(
      dataset.mica.member_states.length + 2,
    );
    const paged = view.compute({ limit: '5' }, 'ndjson');
    expect(paged.ok || paged.problem.detail).toMatch(/^"limit" does not apply to NDJSON/);
    expect(OPERATIONS_TABLE.bulk.some((o) => o.path === SYNTHETIC)).toBe(false);
  });

  it('publishes its response schema, titled by its path', () => {
    const published = responseSchemas(extended).find((p) => p.schema === syntheticResponse)!;
    expect(published.file).toBe('v1/synthetic-states.schema.json');
    expect(published.title).toBe('GET /v1/synthetic/states response');
    const text = JSON.parse(generateAll(extended).get(published.file)!) as {
      $id: string;
      $ref: string;
      $defs: Record<string, { required: string[] }>;
    };
    expect(text.$id).toBe('/schemas/v1/synthetic-states.schema.json');
    expect(text.$ref).toBe('#/$defs/SyntheticStatesResponse');
    expect(text.$defs['SyntheticStatesResponse']!.required).toEqual(['data', 'meta']);
    expect(generateAll().has(published.file)).toBe(false);
  });

  it('links the release manifest’s records it answers with', () => {
    expect(recordUrl('venues', 'binance', undefined, extended)).toBe(SYNTHETIC);
    expect(recordUrl('venues', 'binance', '2026-01-01.000000000000', extended)).toBe(
      `${SYNTHETIC}?dataset_version=2026-01-01.000000000000`,
    );
    expect(recordUrl('venues', 'binance')).toBe(OPERATIONS_TABLE.byId('getStablecoinMarket')!.path);
  });

  it('appears in the OpenAPI document with its parameters, schema and bulk media types', () => {
    const doc = openApiDocument(dataset, extended) as {
      paths: Record<string, { get: Record<string, unknown> }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(extended.paths);
    const get = doc.paths[SYNTHETIC]!.get as {
      operationId: string;
      parameters: { name?: string }[];
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    expect(get.operationId).toBe('listSyntheticStates');
    expect(get.parameters.map((p) => p.name)).toContain('prefix');
    const content = get.responses['200']!.content!;
    expect(content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/SyntheticStatesResponse',
    });
    expect(Object.keys(content)).toEqual(['application/json', 'text/csv', 'application/x-ndjson']);
    expect(Object.keys(openApiDocument(dataset).paths as object)).not.toContain(SYNTHETIC);
  });

  it('is asked by the fast-path parity test, by its parameter’s example', () => {
    expect(parityFilters(extended, dataset).get(SYNTHETIC)).toEqual(['?prefix=D']);
    expect([...parityFilters(OPERATIONS_TABLE, dataset).keys()]).toEqual(
      OPERATIONS_TABLE.datasets.map((o) => o.path),
    );
  });

  it('is a DatasetPath of the typed client (bulk() takes it)', async () => {
    const doc = openApiDocument(dataset, extended);
    expect(datasetPaths(doc)).toEqual([...OPERATIONS_TABLE.bulk.map((o) => o.path), SYNTHETIC]);
    expect(datasetPaths(openApiDocument(dataset))).not.toContain(SYNTHETIC);
    const types = await schemaFrom(doc);
    const declared = /export type DatasetPath =([^;]*);/.exec(types)?.[1] ?? '';
    expect(declared).toContain(`'${SYNTHETIC}'`);
  }, 30_000);

  it('is routed; the real table routes it nowhere (a 404 problem)', async () => {
    const router = (table = OPERATIONS_TABLE) =>
      handlerOf(
        (ctx) => target(ctx, { maxUrlBytes: 4096, memo: createMemo(8) }),
        (ctx) => route(ctx, { staticFiles: new Map(), operations: table }),
        (ctx) => headers(ctx, { version: dataset.dataset_version, signer: null }),
        found,
      ).handle;
    expect((await send(router(extended), SYNTHETIC)).json().route).toBe('api');
    const refused = await send(router(), SYNTHETIC);
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.json().detail).toMatch(/^No operation at \/v1\/synthetic\/states\./);
  });
});

describe('a path without an entry', () => {
  it('has no bulk body: the emitter’s bulk bodies are exactly the table’s bulk routes and formats', () => {
    const names = prebuiltBodyPaths()
      .filter((rel) => rel.startsWith('v1/bulk/'))
      .map((rel) => rel.slice('v1/bulk/'.length));
    expect(names.sort()).toEqual(
      OPERATIONS_TABLE.bulk
        .flatMap((o) => BULK_FORMATS.map((f) => bulkFile(o.path, f).slice('v1/bulk/'.length)))
        .sort(),
    );
    expect(names.some((n) => n.startsWith('synthetic-'))).toBe(false);
  });

  it('has no view and no answer', () => {
    expect(viewsOf(OPERATIONS_TABLE).get(SYNTHETIC)).toBeUndefined();
    expect(answersByPath().has(SYNTHETIC)).toBe(false);
  });
});

describe('the table', () => {
  it('answers every record kind of a release manifest with exactly one operation', () => {
    for (const kind of RECORD_KINDS)
      expect(OPERATIONS_TABLE.list.filter((o) => o.records?.[kind] !== undefined)).toHaveLength(1);
  });

  it('refuses a path twice, an id twice, a path outside /v1 and a record kind twice', () => {
    const [first] = OPERATIONS;
    expect(() => operationsTable([first, { ...first, operationId: 'x' }])).toThrow(
      'two operations at /v1/registry/assets',
    );
    expect(() => operationsTable([first, { ...first, path: '/v1/x' }])).toThrow(
      'two operations named listRegistryAssets',
    );
    expect(() => operationsTable([{ ...first, path: '/v2/x' }])).toThrow('is not under /v1/');
    expect(() => operationsTable([...OPERATIONS, synthetic])).toThrow(
      'two operations answer the venues records',
    );
  });
});

/** Files that still write an operation's path, each with its reason: only what cannot read the table. */
const ALLOWED: Record<string, string> = {
  'src/api/operations.ts': 'the operations table itself',
};

describe('operation paths in source files', () => {
  it('are written only by the operations table (string literals and templates outside src/pages)', () => {
    const found: string[] = [];
    for (const file of sourceFiles(['src', 'scripts'], ['src/pages']))
      if (!(file in ALLOWED))
        found.push(...operationPathLiterals(file).map((h) => `${file}:${h.line}: ${h.text}`));
    expect(found).toEqual([]);
  });

  it('holds only what it must: each allowed file still writes a path', () => {
    for (const file of Object.keys(ALLOWED))
      expect(operationPathLiterals(file), file).not.toEqual([]);
  });

  it('finds a path in a literal or a template, with or without the root, never in a comment', () => {
    const code = [
      '// GET /v1/registry/assets in a comment',
      "const a = '/v1/market/stablecoins';",
      'const b = `${root}/compliance/mica-status?member_state=${s}`;',
      '/* /v1/system/status */ const c = `/v1/registry/asset?tfin=${t}`;',
      "const d = '/v1/registry/funds';",
    ].join('\n');
    expect(operationPathLiterals('x.ts', code).map((h) => h.line)).toEqual([2, 3, 4]);
  });
});
