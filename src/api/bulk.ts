// Bulk representations of the three dataset operations: CSV (RFC 4180) and NDJSON, one record a
// row or a line, with the same filters and order as the JSON. The columns are declared here, once:
// the CSV header, the OpenAPI document and the tests read the same lists.
import type { AssetSummary } from '../domain/api.ts';
import type { StablecoinView } from '../domain/api-market.ts';
import type { MemberStateView } from '../domain/api-mica.ts';
import { riskVectorNames } from '../domain/codes.ts';
import { API_ROOT } from './api-root.ts';
import type { ParamSpec } from './params.ts';

export type Format = 'json' | 'csv' | 'ndjson';
export type BulkFormat = Exclude<Format, 'json'>;
export const BULK_FORMATS: readonly BulkFormat[] = ['csv', 'ndjson'];

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};

export const FORMAT_PARAM: ParamSpec = {
  name: 'format',
  description:
    'Representation, for clients that cannot set `Accept`: `json` (default), `csv` (RFC 4180, a header row, one row per record; columns documented in the operation description) or `ndjson` (one JSON record a line). Wins over `Accept` (`text/csv`, `application/x-ndjson`). Bulk representations carry every matching record, unpaged: `limit` and `cursor` apply to JSON only.',
  values: ['json', 'csv', 'ndjson'],
  normalise: (s) => s.trim().toLowerCase(),
  example: 'csv',
};

/**
 * Asks for a short-lived signed URL of the whole body instead of the body (Enterprise keys;
 * src/server/signed-downloads.ts answers it, never the operation's view).
 */
export const DELIVERY_PARAM: ParamSpec = {
  name: 'delivery',
  description:
    "`signed_url` (Enterprise keys): instead of the body, a `303 See Other` whose `Location` is a short-lived URL of the whole unfiltered body in the representation asked for (`format=` or `Accept`), served by the edge without a key and charged once per download; the answer's JSON body repeats the URL (`href`) and states when it expires (`expires_at`). Takes no other parameter than `format`. Another tier gets `403 tier_required`. See /docs/production#signed-download-urls.",
  values: ['signed_url'],
  normalise: (s) => s.trim().toLowerCase(),
  example: 'signed_url',
};

type Cell = string | number | boolean | null | undefined;

/** A column: its name (the JSON path, `.` between levels) and how a record's value is read. */
export interface Column<R> {
  name: string;
  value(record: R): Cell | readonly Cell[];
}

/** Lists are joined with this separator inside one cell. */
export const LIST_SEPARATOR = ';';

/** A column read at its dotted path; a list of values is joined with `;`. */
function path<R>(name: string): Column<R> {
  const keys = name.split('.');
  return {
    name,
    value(record) {
      let v: unknown = record;
      for (const k of keys)
        v = v === null || v === undefined ? v : (v as Record<string, unknown>)[k];
      return v as Cell | Cell[];
    },
  };
}

/** A list of records, as one of their fields joined with `;`. */
function listOf<R>(name: string, field: string): Column<R> {
  return {
    name,
    value: (record) =>
      ((record as Record<string, unknown>)[name] as Record<string, Cell>[] | undefined)?.map(
        (x) => x[field],
      ) ?? null,
  };
}

export const REGISTRY_COLUMNS: Column<AssetSummary>[] = [
  ...[
    'tfin',
    'kind',
    'programme',
    'parent.tfin',
    'parent.relation',
    'name',
    'short_name',
    'asset_class',
    'tfic',
    'issuer.name',
    'issuer.jurisdiction',
    'issuer.lei',
    'isin',
    'ledgers',
    'contracts',
    'mica_status',
    'mica_authorisation',
    'custody.custodian',
    'custody.transfer_agent',
    'custody.model',
    'custody.segregation',
    'custody.custodian_status',
    'custody.register',
    'custody.grade',
    'custody.grade_points',
    'risk.overall.score',
    'risk.overall.band',
    'risk.overall.range.min',
    'risk.overall.range.max',
    'risk.overall.unknown_factors',
    ...riskVectorNames.map((v) => `risk.vectors.${v}.score`),
    'validation_level',
    'gtds_level',
    'amount.kind',
    'amount.value',
    'amount.currency',
    'amount.as_of',
    'amount.age_days',
    'amount.stale',
    'amount.source',
    'amount.value_usd',
    'amount.fx.rate',
    'amount.fx.date',
    'lifecycle_status',
    'as_of',
    'last_changed',
  ].map((n) => path<AssetSummary>(n)),
];

export const STABLECOIN_COLUMNS: Column<StablecoinView>[] = [
  ...[
    'id',
    'symbol',
    'name',
    'issuer.name',
    'issuer.issuing_entity',
    'issuer.lei',
    'issuer.jurisdiction',
    'dti',
    'peg_currency',
    'backing',
    'ledgers',
    'market_cap.value',
    'market_cap.as_of',
    'market_cap.source',
    'market_cap.age_days',
    'market_cap.stale',
    'market_cap.value_usd',
    'market_cap.fx.rate',
    'market_cap.fx.date',
    'circulating_supply.value',
    'circulating_supply.as_of',
    'circulating_supply.source',
    'circulating_supply.age_days',
    'circulating_supply.stale',
    'mica.classification',
    'mica.authorisation.status',
    'mica.authorisation.home_member_state',
    'status.value',
    'dominance.share_of_compared_pct',
    'dominance.share_within_peg_pct',
    'dominance.not_comparable_reason',
    'compliance_rating.rating',
    'compliance_rating.points',
    'adoption.score',
    'adoption.venues_listed',
    'adoption.venues_total',
    'as_of',
    'last_changed',
  ].map((n) => path<StablecoinView>(n)),
];

const READINESS_COMPONENTS = [
  'competent_authority',
  'national_measures',
  'transitional_period_months',
  'authorised_casps',
  'emt_issuers',
  'dlt_pilot_infrastructures',
];

export const MICA_COLUMNS: Column<MemberStateView>[] = [
  path('iso'),
  path('name'),
  listOf('competent_authorities', 'short_name'),
  ...[
    'authorised_casps',
    'emt_issuers',
    'art_issuers',
    'dlt_pilot_infrastructures',
    'national_measures.adopted',
    'national_measures.instrument',
    'national_measures.date',
    'counts_as_of',
    'transitional_period.months_scored',
    'readiness.score',
    'readiness.formula_version',
    ...READINESS_COMPONENTS.flatMap((c) => [
      `readiness.components.${c}.value`,
      `readiness.components.${c}.points`,
    ]),
    'as_of',
    'last_changed',
  ].map((n) => path<MemberStateView>(n)),
];

/**
 * Text a spreadsheet would run as a formula (OWASP "CSV Injection"): a cell starting with = + -
 * @, tab or CR. Such text gets a leading ' and is quoted, so it shows as written and never runs.
 * Only text: a number (−1.5) is written as the number it is.
 */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF; quotes doubled;
 * formula-leading text neutralised.
 */
export function csvField(value: Cell | readonly Cell[]): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value)
    ? value.map((v) => (v === null || v === undefined ? '' : String(v))).join(LIST_SEPARATOR)
    : String(value as Cell);
  const isText = Array.isArray(value) ? typeof value[0] === 'string' : typeof value === 'string';
  if (isText && FORMULA_LEAD.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Records terminate with CRLF (RFC 4180 §2.1), the last one too. */
export function csvHeader<R>(columns: readonly Column<R>[]): string {
  return `${columns.map((c) => csvField(c.name)).join(',')}\r\n`;
}

export function csvRow<R>(columns: readonly Column<R>[], record: R): string {
  return `${columns.map((c) => csvField(c.value(record))).join(',')}\r\n`;
}

/** What a bulk body starts with: the CSV header row; nothing for NDJSON. */
export function bulkHeader<R>(format: BulkFormat, columns: readonly Column<R>[]): string {
  return format === 'csv' ? csvHeader(columns) : '';
}

/** One record of a bulk body, with its line end (`json`: the record's JSON, if already made). */
export function bulkRecord<R>(
  format: BulkFormat,
  columns: readonly Column<R>[],
  record: R,
  json?: string,
): string {
  return format === 'csv' ? csvRow(columns, record) : `${json ?? JSON.stringify(record)}\n`;
}

/**
 * Writes the records in the format, in chunks of about 64 KB (so a large export is never one
 * string being concatenated row by row).
 */
export function* bulkChunks<R>(
  format: BulkFormat,
  columns: readonly Column<R>[],
  records: Iterable<R>,
): Generator<string> {
  let chunk = bulkHeader(format, columns);
  for (const r of records) {
    chunk += bulkRecord(format, columns, r);
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export function bulkText<R>(
  format: BulkFormat,
  columns: readonly Column<R>[],
  records: Iterable<R>,
): string {
  return [...bulkChunks(format, columns, records)].join('');
}

/** dist/client/<this> (the routes with bulk representations: operations.ts BULK_ROUTES): no dot in the name, so the build precompresses it with the API bodies. */
export function bulkFile(route: string, format: BulkFormat): string {
  const root = API_ROOT.slice(1);
  return `${root}/bulk/${route.slice(`${API_ROOT}/`.length).replaceAll('/', '-')}-${format}`;
}
