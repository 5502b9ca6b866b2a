// Filtered views of the prerendered datasets, computed on request from the same dataset and
// functions that produced the prebuilt bytes. With no query the prebuilt bytes are served.
import type { DatasetCore } from '../dataset/artifact.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import {
  micaBulk,
  micaStatusBody,
  registryBulk,
  serialise,
  stablecoinsBody,
  stablecoinsBulk,
} from './bodies.ts';
import { bulkQueryProblem, type BulkFormat, type Format } from './bulk.ts';
import { operationAt } from './operations.ts';
import { readParams, type ParamProblem, type ParamSpec } from './params.ts';
import { registryList, registryPage, selectRows, type RegistrySource } from './registry-list.ts';

/** `text`: the body in the format asked for (JSON, CSV or NDJSON). */
export type ViewResult = { ok: true; text: string | Buffer } | { ok: false; problem: ParamProblem };

/**
 * A prebuilt unfiltered export read by record (the server's bulk-lines.ts reads the built file):
 * the CSV header (empty for NDJSON) and record i, with its line end.
 */
export interface BulkLines {
  header: Buffer;
  count: number;
  record(i: number): Buffer;
}

/** The registry's prebuilt exports by record, for filtered exports. */
export type RegistryExports = Record<BulkFormat, BulkLines>;

export interface DatasetView {
  specs: ParamSpec[];
  compute(values: Record<string, string>, format: Format): ViewResult;
}

function memberStateProblem(state: string | undefined, euStates: string[]): ViewResult {
  return {
    ok: false,
    problem: {
      code: 'member_state_not_found',
      detail: `${state} is not an EU member state. Use one of: ${euStates.join(', ')}.`,
      extensions: { allowed: euStates },
    },
  };
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

const EMPTY_DATA = '{"data":[]';

/**
 * A JSON list page, or null for a cursor not issued for the query. With prebuilt summaries the
 * rows' bytes are spliced into the body as read (byte-identical to serialising the summaries).
 */
function listBody(
  registry: RegistrySource,
  values: Record<string, string>,
): string | Buffer | null {
  if (!registry.summaryRows) {
    const result = registryList(registry, values);
    return result.ok ? serialise(result.body) : null;
  }
  const result = registryPage(registry.core, values);
  if (!result.ok) return null;
  const rest = serialise({ data: [], meta: result.meta });
  if (!rest.startsWith(EMPTY_DATA)) throw new Error('unexpected list body layout');
  // The page's body in one allocation: the rows read straight into it between its two ends.
  return registry.summaryRows(
    result.page.map((row) => row.tfin),
    Buffer.from('{"data":['),
    Buffer.from(rest.slice(EMPTY_DATA.length - 1)),
  );
}

export function datasetViews(
  dataset: DatasetCore,
  source: RegistrySource,
  exports?: RegistryExports,
): Map<string, DatasetView> {
  const registry = withSummaryCache(source);
  const rows = dataset.registry.rows;
  const position = new Map(rows.map((r, i) => [r.tfin, i]));
  // The prebuilt exports must hold the index's assets in its order (checked at both ends).
  const aligned = (lines: BulkLines, format: BulkFormat) =>
    lines.count === rows.length &&
    [0, rows.length - 1].every(
      (i) =>
        i < 0 ||
        lines
          .record(i)
          .toString('utf8')
          .startsWith(format === 'csv' ? `${rows[i]!.tfin},` : `{"tfin":"${rows[i]!.tfin}"`),
    );
  if (exports && !(aligned(exports.csv, 'csv') && aligned(exports.ndjson, 'ndjson')))
    throw new Error('the prebuilt registry exports do not match the dataset: run `npm run build`');
  /** A filtered export: the header and the selected records copied from the prebuilt one. */
  const exportOf = (values: Record<string, string>, format: BulkFormat): string | Buffer => {
    const lines = exports?.[format];
    if (!lines) return [...registryBulk(registry, values, format)].join('');
    const parts = [lines.header];
    for (const row of selectRows(dataset, values))
      parts.push(lines.record(position.get(row.tfin)!));
    return Buffer.concat(parts);
  };
  const euStates = dataset.mica.member_states.map((s) => s.iso);
  // The parameters are the operations table's (operations.ts).
  const specsOf = (path: string) => operationAt(path)!.params(dataset);
  return new Map<string, DatasetView>([
    [
      '/v1/registry/assets',
      {
        specs: specsOf('/v1/registry/assets'),
        compute(values, format) {
          if (format !== 'json') {
            const problem = bulkQueryProblem(format, values);
            if (problem) return { ok: false, problem };
            return { ok: true, text: exportOf(values, format) };
          }
          const text = listBody(registry, values);
          if (text !== null) return { ok: true, text };
          return {
            ok: false,
            problem: {
              code: 'invalid_cursor',
              detail: 'The cursor does not belong to this query; start again without "cursor".',
              extensions: {
                errors: [{ parameter: 'cursor', message: 'was not issued for this query' }],
              },
            },
          };
        },
      },
    ],
    [
      '/v1/market/stablecoins',
      {
        specs: specsOf('/v1/market/stablecoins'),
        compute(values, format) {
          if (format === 'json')
            return { ok: true, text: serialise(stablecoinsBody(dataset, values)) };
          const problem = bulkQueryProblem(format, values);
          if (problem) return { ok: false, problem };
          return { ok: true, text: stablecoinsBulk(dataset, values, format) };
        },
      },
    ],
    [
      '/v1/compliance/mica-status',
      {
        specs: specsOf('/v1/compliance/mica-status'),
        compute(values, format) {
          if (format !== 'json') {
            const problem = bulkQueryProblem(format, values);
            if (problem) return { ok: false, problem };
            const text = micaBulk(dataset, values, format);
            return text === null
              ? memberStateProblem(values['member_state'], euStates)
              : { ok: true, text };
          }
          const body = micaStatusBody(dataset, values);
          if (body) return { ok: true, text: serialise(body) };
          return memberStateProblem(values['member_state'], euStates);
        },
      },
    ],
  ]);
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
