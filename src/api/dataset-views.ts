// Filtered views of the prerendered datasets, computed on request from the same dataset and
// functions that produced the prebuilt bytes. With no query the prebuilt bytes are served. Which
// operations have a view, their parameters and what each answers come from the operations table;
// every view answers in every format registered in formats.ts.
import type { DatasetCore } from '../dataset/artifact.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import type { Format } from './bulk.ts';
import { FORMATS } from './formats.ts';
import { OPERATIONS_TABLE, type OperationsTable } from './operations.ts';
import type { RegistryExports, ViewResult } from './operation-views.ts';
import { readParams, type ParamProblem, type ParamSpec } from './params.ts';
import type { RegistrySource } from './registry-list.ts';

export type { BulkLines, RegistryExports, ViewResult } from './operation-views.ts';

export interface DatasetView {
  specs: ParamSpec[];
  compute(values: Record<string, string>, format: Format): ViewResult;
}

/**
 * Summaries kept between list requests (oldest out), for sources without prebuilt summary rows
 * (release views, filtered exports without the prebuilt ones). There a summary is read back from
 * the asset's prebuilt body (a JSON.parse of the whole profile, ~0.1 ms); the served registry
 * splices its rows from the summaries file instead (summary-file.ts, listBody).
 */
const SUMMARY_CACHE = 2048;

function withSummaryCache(registry: RegistrySource): RegistrySource {
  const cache = new BoundedMap<string, ReturnType<RegistrySource['summaryOf']>>(SUMMARY_CACHE);
  return {
    core: registry.core,
    ...(registry.summaryRows ? { summaryRows: registry.summaryRows.bind(registry) } : {}),
    summaryOf(tfin) {
      let summary = cache.get(tfin);
      if (!summary) cache.set(tfin, (summary = registry.summaryOf(tfin)));
      return summary;
    },
  };
}

/** The view of every dataset operation in `table`, by path: its parameters and its computation. */
export function datasetViews(
  dataset: DatasetCore,
  source: RegistrySource,
  exports?: RegistryExports,
  table: OperationsTable = OPERATIONS_TABLE,
): Map<string, DatasetView> {
  const context = { dataset, registry: withSummaryCache(source), exports };
  return new Map(
    table.datasets.map((op) => {
      const source = op.view(context);
      const columns = op.bulk.columns;
      const compute = (values: Record<string, string>, format: Format) =>
        FORMATS[format].render(source, columns, values);
      return [op.path, { specs: op.params(dataset), compute }];
    }),
  );
}

/**
 * Reads a view's query once: its values and the normalised form (sorted `k=v`) that equal
 * queries share, so one cached body serves them all.
 */
export function readView(
  view: DatasetView,
  search: string,
):
  { ok: true; values: Record<string, string>; key: string } | { ok: false; problem: ParamProblem } {
  const params = readParams(new URLSearchParams(search), view.specs);
  if (!params.ok) return params;
  const key = Object.keys(params.values)
    .sort()
    .map((k) => `${k}=${params.values[k]}`)
    .join('&');
  return { ok: true, values: params.values, key };
}
