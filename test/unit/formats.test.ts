// Formats registered once (src/api/formats.ts): each of JSON, CSV and NDJSON has one renderer with
// its media type, its Accept type and its problems; every dataset operation in the table answers
// in every one from its entry, and no other module writes a bulk body for a query or checks what
// a bulk format cannot carry.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULK_FORMATS, MEDIA_TYPES, type Format } from '../../src/api/bulk.ts';
import { datasetViews } from '../../src/api/dataset-views.ts';
import { FORMATS } from '../../src/api/formats.ts';
import { DATASET_TYPES, negotiateFormat } from '../../src/api/negotiate.ts';
import { OPERATIONS_TABLE } from '../../src/api/operations.ts';
import { memorySource } from '../../src/api/registry-list.ts';
import { loadData } from '../../src/authoring/load.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { walkFiles } from '../../src/lib/walk.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

const loaded = await loadData(path.resolve('.'), RELEASE_DATE);
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);
const ALL: Format[] = ['json', ...BULK_FORMATS];

describe('the formats', () => {
  it('are registered once each, and negotiated by the types registered', () => {
    expect(Object.keys(FORMATS)).toEqual(ALL);
    for (const format of ALL) {
      expect(FORMATS[format].format).toBe(format);
      expect(FORMATS[format].mediaType).toBe(MEDIA_TYPES[format]);
      expect(negotiateFormat(FORMATS[format].acceptType)).toBe(format);
    }
    expect(DATASET_TYPES).toEqual(ALL.map((f) => FORMATS[f].acceptType));
  });

  it('answer every dataset operation of the table, with each bulk format’s own problem', () => {
    const views = datasetViews(dataset, memorySource(dataset));
    expect([...views.keys()]).toEqual(OPERATIONS_TABLE.datasets.map((o) => o.path));
    for (const [route, view] of views) {
      for (const format of ALL) {
        const result = view.compute({}, format);
        expect(result.ok, `${route} ${format}`).toBe(true);
      }
      for (const format of BULK_FORMATS) {
        const paged = view.compute({ cursor: 'x' }, format);
        expect(paged.ok || paged.problem.code, `${route} ${format}`).toBe('invalid_parameter');
      }
      const csv = view.compute({ include: 'history' }, 'csv');
      expect(csv.ok || csv.problem.detail, route).toMatch(/^"include" has no CSV form/);
    }
  });

  it('are written nowhere else: no other module renders a bulk body for a query or checks one', () => {
    const found = walkFiles('src')
      .filter((f) => f.endsWith('.ts') && !/src\/api\/(formats|bulk)\.ts$/.test(f))
      .filter((f) => /\b(bulkText|bulkChunks|bulkQueryProblem)\b/.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
