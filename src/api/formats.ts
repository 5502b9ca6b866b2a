// The representations every dataset operation answers in, each registered once: its media type,
// the type `Accept` names it by (negotiate.ts negotiates among these), what a query cannot ask of
// it (its problem), and how it writes an operation's answer. An operation brings only its JSON
// body, its records and its columns (operation-views.ts, the operations table's `bulk`); the
// views (dataset-views.ts) render each format here, so no operation chooses between formats.
import { BULK_FORMATS, bulkText, MEDIA_TYPES, type Column } from './bulk.ts';
import type { BulkFormat, Format } from './bulk.ts';
import type { DatasetSource, ViewResult } from './operation-views.ts';
import type { ParamProblem } from './params.ts';

export interface FormatRenderer {
  readonly format: Format;
  /** The Content-Type it is sent with. */
  readonly mediaType: string;
  /** The media type an `Accept` header names it by (parameters aside). */
  readonly acceptType: string;
  /** An operation's answer to a query's values in this format, or a problem. */
  render(
    source: DatasetSource,
    columns: readonly Column<never>[],
    values: Record<string, string>,
  ): ViewResult;
}

/** What a bulk representation cannot combine with: paging, and (for CSV) the nested history. */
export function bulkQueryProblem(
  format: BulkFormat,
  q: Record<string, string>,
): ParamProblem | null {
  const errors: { parameter: string; message: string }[] = [];
  for (const p of ['limit', 'cursor'])
    if (q[p] !== undefined)
      errors.push({
        parameter: p,
        message: `does not apply to ${format.toUpperCase()}, which carries every matching record; leave it out`,
      });
  if (format === 'csv' && q['include'] === 'history')
    errors.push({
      parameter: 'include',
      message: 'has no CSV form (a history is a list per record); use NDJSON or JSON',
    });
  if (!errors.length) return null;
  return {
    code: 'invalid_parameter',
    detail: errors.map((e) => `"${e.parameter}" ${e.message}`).join('; ') + '.',
    extensions: { errors },
  };
}

/** The operation's own body, with its envelope (data and meta). */
const json: FormatRenderer = {
  format: 'json',
  mediaType: MEDIA_TYPES.json,
  acceptType: 'application/json',
  render: (source, _columns, values) => source.json(values),
};

/** Every record the query selects, unpaged, one a row (CSV) or a line (NDJSON). */
function bulk(format: BulkFormat): FormatRenderer {
  return {
    format,
    mediaType: MEDIA_TYPES[format],
    acceptType: MEDIA_TYPES[format].split(';')[0]!,
    render(source, columns, values) {
      const problem = bulkQueryProblem(format, values);
      if (problem) return { ok: false, problem };
      const made = source.exported?.(values, format);
      if (made !== undefined) return { ok: true, text: made };
      const selected = source.records(values);
      if (!selected.ok) return selected;
      return { ok: true, text: bulkText(format, columns, selected.records as Iterable<never>) };
    },
  };
}

/** The formats, JSON first (the default, and the answer to ties and `*\/*`). */
export const FORMATS: Readonly<Record<Format, FormatRenderer>> = {
  json,
  ...(Object.fromEntries(BULK_FORMATS.map((f) => [f, bulk(f)])) as Record<
    BulkFormat,
    FormatRenderer
  >),
};
