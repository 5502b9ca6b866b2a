// How each dataset operation computes its bodies: the `view` (a filtered body for a query, in
// JSON, CSV or NDJSON) and the `bulk.body` (the unfiltered export) of its operations-table entry.
// The functions here name no path: the table (operations.ts) says which operation uses which.
import type { DatasetCore } from '../dataset/artifact.ts';
import {
  micaBulk,
  micaStatusBody,
  registryBulk,
  serialise,
  stablecoinsBody,
  stablecoinsBulk,
} from './bodies.ts';
import { bulkQueryProblem, type BulkFormat, type Format } from './bulk.ts';
import type { ParamProblem } from './params.ts';
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

/** What a view is made from: the dataset, the registry's summaries and its prebuilt exports. */
export interface ViewContext {
  dataset: DatasetCore;
  /** The registry's summaries (kept between requests by the caller). */
  registry: RegistrySource;
  /** The registry's prebuilt exports read by record, when the server has them. */
  exports?: RegistryExports | undefined;
}

/** A view's answer to one query's values in one format. */
export type ViewCompute = (values: Record<string, string>, format: Format) => ViewResult;

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

/** The registry list: filters, sorting and cursor paging; exports sliced from the prebuilt ones. */
export function registryListView({ dataset, registry, exports }: ViewContext): ViewCompute {
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
  return (values, format) => {
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
  };
}

/** The stablecoin market: the coin filters over the market section. */
export function stablecoinsView({ dataset }: ViewContext): ViewCompute {
  return (values, format) => {
    if (format === 'json') return { ok: true, text: serialise(stablecoinsBody(dataset, values)) };
    const problem = bulkQueryProblem(format, values);
    if (problem) return { ok: false, problem };
    return { ok: true, text: stablecoinsBulk(dataset, values, format) };
  };
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

/** The MiCA status: one member state or all, changed since a date. */
export function micaStatusView({ dataset }: ViewContext): ViewCompute {
  const euStates = dataset.mica.member_states.map((s) => s.iso);
  return (values, format) => {
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
  };
}

/**
 * An unfiltered export (`bulk.body` of an entry), in chunks: what the build writes for the
 * operation. `source` is the dataset with a summary per asset (only the registry reads those).
 */
export type BulkBody = (
  source: RegistrySource & { core: DatasetCore },
  format: BulkFormat,
) => Iterable<string>;

/** The registry's export, streamed one summary at a time (a large registry is never one string). */
export const registryBulkBody: BulkBody = (source, format) => registryBulk(source, {}, format);

export const stablecoinsBulkBody: BulkBody = ({ core }, format) => [
  stablecoinsBulk(core, {}, format),
];

export const micaBulkBody: BulkBody = ({ core }, format) => [micaBulk(core, {}, format)!];
