// What each dataset operation answers a query with (the `view` of its operations-table entry):
// its JSON body, and the records its query selects, which every other format writes
// (formats.ts: each format registered once, so no operation chooses between them). The functions
// here name no path: the table (operations.ts) says which operation uses which.
import type { DatasetCore } from '../dataset/artifact.ts';
import { micaStatusBody, serialise, stablecoinsBody } from './bodies.ts';
import type { BulkFormat } from './bulk.ts';
import type { ParamProblem } from './params.ts';
import { registryList, registryPage, selectRows, type RegistrySource } from './registry-list.ts';

/** `text`: the body in the format asked for (JSON, CSV or NDJSON). */
export type ViewResult = { ok: true; text: string | Buffer } | { ok: false; problem: ParamProblem };

/** The records a query selects, in its order, or the query's problem (the same as JSON's). */
export type RecordsResult =
  { ok: true; records: Iterable<unknown> } | { ok: false; problem: ParamProblem };

/** An operation's answers to a query's values: what the formats (formats.ts) are rendered from. */
export interface DatasetSource {
  /** The JSON body (data and meta), or the query's problem. */
  json(values: Record<string, string>): ViewResult;
  /** The records the bulk formats write (the JSON body's list, unpaged). */
  records(values: Record<string, string>): RecordsResult;
  /** A bulk body made without writing the records again (the registry's: sliced), if it can be. */
  exported?(values: Record<string, string>, format: BulkFormat): string | Buffer | undefined;
}

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

const INVALID_CURSOR: ParamProblem = {
  code: 'invalid_cursor',
  detail: 'The cursor does not belong to this query; start again without "cursor".',
  extensions: { errors: [{ parameter: 'cursor', message: 'was not issued for this query' }] },
};

/** The registry list: filters, sorting and cursor paging; exports sliced from the prebuilt ones. */
export function registryListView({ dataset, registry, exports }: ViewContext): DatasetSource {
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
  return {
    json(values) {
      const text = listBody(registry, values);
      return text === null ? { ok: false, problem: INVALID_CURSOR } : { ok: true, text };
    },
    records(values) {
      const selected = selectRows(dataset, values);
      function* summaries() {
        for (const row of selected) yield registry.summaryOf(row.tfin);
      }
      return { ok: true, records: summaries() };
    },
    /** A filtered export: the header and the selected records copied from the prebuilt one. */
    exported(values, format) {
      const lines = exports?.[format];
      if (!lines) return undefined;
      const parts = [lines.header];
      for (const row of selectRows(dataset, values))
        parts.push(lines.record(position.get(row.tfin)!));
      return Buffer.concat(parts);
    },
  };
}

/** The stablecoin market: the coin filters over the market section. */
export function stablecoinsView({ dataset }: ViewContext): DatasetSource {
  return {
    json: (values) => ({ ok: true, text: serialise(stablecoinsBody(dataset, values)) }),
    records: (values) => ({ ok: true, records: stablecoinsBody(dataset, values).data.stablecoins }),
  };
}

function memberStateProblem(
  state: string | undefined,
  euStates: string[],
): { ok: false; problem: ParamProblem } {
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
export function micaStatusView({ dataset }: ViewContext): DatasetSource {
  const euStates = dataset.mica.member_states.map((s) => s.iso);
  return {
    json(values) {
      const body = micaStatusBody(dataset, values);
      if (body) return { ok: true, text: serialise(body) };
      return memberStateProblem(values['member_state'], euStates);
    },
    records(values) {
      const body = micaStatusBody(dataset, values);
      if (body) return { ok: true, records: body.data.member_states };
      return memberStateProblem(values['member_state'], euStates);
    },
  };
}
