// The registry list view: filters, sorting and cursor paging over the built dataset.
// With no query it yields exactly the body that Astro prerenders at build.
import { createHash } from 'node:crypto';
import type { AssetListBody, AssetSummary } from '../domain/api.ts';
import { lifecycleStatus, recordKind } from '../domain/asset.ts';
import { TFIN_PATTERN } from '../domain/identifiers.ts';
import { UNKNOWN_FACTOR } from '../domain/codes.ts';
import { datasetMeta, type Dataset, type DatasetCore } from '../dataset/artifact.ts';
import type { IndexRow, RowSearch } from '../dataset/registry-index.ts';
import { searchTextProblem, type SearchSpec } from './search.ts';
import {
  buildRegistryQuery,
  filterRows,
  inOrder,
  keepIn,
  positionsOf,
  registryQuery,
  searchRows,
  useRegistryQuery,
} from './registry-query.ts';
import type { RegistryQueryData } from '../dataset/registry-query-file.ts';
import type { ParamSpec } from './params.ts';
import { DELIVERY_PARAM, FORMAT_PARAM } from './bulk.ts';
import { CHANGED_SINCE_PARAM } from './changed-since-param.ts';
import { DATASET_VERSION_PARAM } from './version-param.ts';
import { assetSummary } from '../dataset/asset-shapes.ts';

/** `limit`'s largest page; without `limit` a list answers every record its query selects. */
export const MAX_LIMIT = 500;
const SORT_KEYS = ['tfin', 'name', 'risk', 'as_of', 'amount_usd'] as const;

const lower = (s: string) => s.trim().toLowerCase();
const upper = (s: string) => s.trim().toUpperCase();

/** The list's parameters, in the order the document lists them. */
export function registryListParams(dataset: Pick<DatasetCore, 'codes'>): ParamSpec[] {
  return [...codeParams(dataset), ...recordParams(), ...queryParams()];
}

/** Filters on the dataset's code lists (their values are the codes it holds). */
function codeParams(dataset: Pick<DatasetCore, 'codes'>): ParamSpec[] {
  return [
    {
      name: 'asset_class',
      description: 'TFIC asset class code.',
      values: dataset.codes.tfic.classes.map((c) => c.code),
      normalise: upper,
      example: 'FUND',
    },
    {
      name: 'tfic',
      description: 'Full TFIC code.',
      values: dataset.codes.tfic.classes.flatMap((c) =>
        c.categories.map((k) => `${c.code}.${k.code}`),
      ),
      normalise: upper,
      example: 'FUND.MMFD',
    },
    {
      name: 'ledger',
      description: 'Ledger code; matches assets issued or represented on it.',
      values: dataset.codes.ledgers.ledgers.map((l) => l.code),
      normalise: upper,
      example: 'ETH',
    },
    {
      name: 'mica_status',
      description: 'MiCA status code.',
      values: dataset.codes.micaStatus.statuses.map((s) => s.code),
      normalise: lower,
      example: 'financial_instrument',
    },
    {
      name: 'mica_authorisation',
      description:
        'MiCA authorisation status (`mica.authorisation.status`): `authorised`, `not_authorised`, `not_applicable` or `unknown`. A classification (`mica_status`) is not an authorisation.',
      values: ['authorised', 'not_authorised', 'not_applicable', 'unknown'],
      normalise: lower,
      example: 'not_authorised',
    },
    ...REGULATORY_FACTORS.map((factor) => ({
      name: factor,
      description: `The \`regulatory.${factor}\` risk factor. A record whose ${factor.replace('_', ' ')} no source states is \`unknown\`: it matches only \`${factor}=unknown\`, never a stated value.`,
      values: [
        ...Object.keys(dataset.codes.riskFactors.vectors.regulatory?.[factor] ?? {}),
        UNKNOWN_FACTOR,
      ],
      normalise: lower,
      example: factor === 'regime' ? 'eu_or_uk_prospectus_or_ucits' : 'eligible_eu_investors',
    })),
  ];
}

/** Filters on a record's own facts and identifiers. */
function recordParams(): ParamSpec[] {
  return [
    {
      name: 'jurisdiction',
      description: 'ISO 3166-1 alpha-2 code of the issuer’s domicile.',
      pattern: /^[A-Z]{2}$/,
      format: 'an ISO 3166-1 alpha-2 code',
      normalise: upper,
      example: 'LU',
    },
    {
      name: 'lifecycle_status',
      description: 'Lifecycle status of the asset.',
      values: lifecycleStatus.options,
      normalise: lower,
      example: 'active',
    },
    {
      name: 'lei',
      description: 'LEI (ISO 17442) of the issuer; returns the assets it issued.',
      pattern: /^[A-Z0-9]{18}[0-9]{2}$/,
      format: 'an LEI (ISO 17442): 18 letters or digits, 2 check digits',
      normalise: upper,
      maxLength: 40,
      example: '5493001KJTIIGC8Y1R12',
    },
    {
      name: 'isin',
      description: 'ISIN (ISO 6166) mapped to the asset.',
      pattern: /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/,
      format: 'an ISIN (ISO 6166): 2 letters, 9 letters or digits, a check digit',
      normalise: upper,
      maxLength: 32,
      example: 'US0378331005',
    },
    {
      name: 'kind',
      description:
        'Record kind: `asset` (a single asset), `programme` (a platform or fund with series), `series` (one token of a programme).',
      values: recordKind.options,
      normalise: lower,
      example: 'series',
    },
    {
      name: 'programme',
      description: 'TFIN of a programme; returns its series.',
      pattern: TFIN_PATTERN,
      format: 'a TFIN such as TFIN-EQTY-SOL-2025-0002',
      normalise: upper,
      maxLength: 40,
      example: 'TFIN-EQTY-SOL-2025-0002',
    },
    {
      name: 'validation_level',
      description: 'Validation level (L1–L3); returns assets at this level or higher.',
      values: ['L1', 'L2', 'L3'],
      normalise: upper,
      example: 'L2',
    },
  ];
}

/** Free text, order, version, format and paging. */
function queryParams(): ParamSpec[] {
  return [
    {
      name: 'q',
      description:
        'Free text over the name and short name (ticker), issuer and sponsor, asset class and TFIC category (codes and names), the currency of the amount, ledger codes and names, identifiers (TFIN, ISIN, CUSIP, FIGI, DTI, LEI, contract addresses) and the description. Words are compared folded (case and accents ignored) and by their stem ("treasuries" finds "treasury"); every word of the query must match a word or the beginning of one ("CH13" finds ISINs starting CH13); words of six letters or more also match with one letter wrong. At most 8 words (more is a 400); a one-letter word other than the last matches only itself. Without `sort`, results are ranked by relevance, the fields weighted in the order listed (names highest, description lowest), an asset with a whole field (TFIN, name, short name, ISIN, issuer) equal to the text first; TFIN order on ties.',
      maxLength: 100,
      normalise: (s) => s.trim(),
      example: 'treasury',
      check: searchTextProblem,
    },
    {
      name: 'sort',
      description:
        'Sort key; prefix with "-" for descending. `amount_usd` sorts by `amount.value_usd`, `risk` by `risk.overall.score`; assets without one (no USD amount; a risk factor unknown) come last in both directions. Ties in TFIN order.',
      values: SORT_KEYS.flatMap((k) => [k, `-${k}`]),
      normalise: lower,
      example: '-risk',
    },
    CHANGED_SINCE_PARAM,
    DATASET_VERSION_PARAM,
    FORMAT_PARAM,
    DELIVERY_PARAM,
    {
      name: 'limit',
      description: `Page size, 1–${MAX_LIMIT}. Without it the answer holds every record the query selects (no parameters: the whole registry, prebuilt); with it, \`meta.next_cursor\` leads to the next page.`,
      pattern: /^(?:[1-9]\d?|[1-4]\d\d|500)$/,
      format: `a whole number from 1 to ${MAX_LIMIT}`,
      integer: { minimum: 1, maximum: MAX_LIMIT },
      normalise: (s) => s.trim(),
      example: '50',
    },
    {
      name: 'cursor',
      description: 'Opaque cursor from `meta.next_cursor` of the previous page (same query).',
      pattern: /^[A-Za-z0-9_-]{1,200}$/,
      format: 'a cursor returned in meta.next_cursor',
      maxLength: 200,
    },
  ];
}

/** The regulatory factors the list filters on; rows built before them read as `unknown`. */
const REGULATORY_FACTORS = ['regime', 'eu_access'] as const;

/** What a list view needs: the core (provenance, index, coverage) and a summary per TFIN. */
export interface RegistrySource {
  core: Pick<DatasetCore, 'dataset_version' | 'generated_at' | 'as_of' | 'freshness' | 'registry'>;
  summaryOf(tfin: string): AssetSummary;
  /**
   * The summaries of `tfins` as the JSON a page serialises for them, comma-separated (the
   * contents of `data`'s array) between `prefix` and `suffix`, in one buffer, when the source has
   * them prebuilt (summary-file.ts).
   */
  summaryRows?(tfins: readonly string[], prefix?: Buffer, suffix?: Buffer): Buffer;
}

/** A source over profiles held in memory (the build and the tests). */
export function memorySource(dataset: Dataset): RegistrySource {
  const byTfin = new Map(dataset.assets.map((a) => [a.tfin, a]));
  return { core: dataset, summaryOf: (tfin) => assetSummary(byTfin.get(tfin)!) };
}

function comparator(sort: string): (a: IndexRow, b: IndexRow) => number {
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  return (a, b) => {
    const va = sortValue(key, a);
    const vb = sortValue(key, b);
    const order = va < vb ? -1 : va > vb ? 1 : 0;
    // Ties fall back to TFIN so that pages never overlap.
    return (desc ? -order : order) || (a.tfin < b.tfin ? -1 : a.tfin > b.tfin ? 1 : 0);
  };
}

/**
 * The registry's rows in every `sort` order, computed once per index (sorting 100,000 rows on
 * each request cost ~0.3 s of CPU). Each key is sorted ascending once; the descending order
 * reverses the runs of equal values while keeping each run in TFIN order (the tie-break of
 * `comparator`), so both match a per-request sort exactly.
 */
const sortOrders = new WeakMap<readonly IndexRow[], Map<string, readonly IndexRow[]>>();

export function prepareSortOrders(rows: readonly IndexRow[]): Map<string, readonly IndexRow[]> {
  let orders = sortOrders.get(rows);
  if (orders) return orders;
  orders = new Map();
  for (const key of SORT_KEYS) {
    const asc = [...rows].sort(comparator(key));
    const desc: IndexRow[] = [];
    let end = asc.length;
    while (end > 0) {
      let start = end - 1;
      // Rows with the same value differ only by TFIN: extend the run while the comparator ties on the value.
      while (start > 0 && sameValue(key, asc[start - 1]!, asc[start]!)) start--;
      for (let i = start; i < end; i++) desc.push(asc[i]!);
      end = start;
    }
    if (key === 'amount_usd' || key === 'risk') {
      // Assets without a USD amount (or a risk score: a factor unknown) last, in both directions (TFIN order among them).
      const known = (r: IndexRow) => sortValue(key, r) !== -1;
      const unknown = asc.filter((r) => !known(r));
      orders
        .set(key, [...asc.filter(known), ...unknown])
        .set(`-${key}`, [...desc.filter(known), ...unknown]);
      continue;
    }
    orders.set(key, asc).set(`-${key}`, desc);
  }
  sortOrders.set(rows, orders);
  return orders;
}

function sortValue(key: string, s: IndexRow): string | number {
  if (key === 'amount_usd') return s.amount_usd ?? -1;
  return key === 'risk'
    ? (s.risk ?? -1)
    : key === 'name'
      ? s.name.toLowerCase()
      : key === 'as_of'
        ? s.as_of
        : s.tfin;
}

function sameValue(key: string, a: IndexRow, b: IndexRow): boolean {
  return sortValue(key, a) === sortValue(key, b);
}

const FILTERS = [
  'asset_class',
  'tfic',
  'ledger',
  'mica_status',
  'mica_authorisation',
  'regime',
  'eu_access',
  'jurisdiction',
  'lifecycle_status',
  'lei',
  'isin',
  'kind',
  'programme',
  'changed_since',
  'validation_level',
  'q',
];

/** The query without the cursor, in a canonical order: what a cursor is bound to. */
function queryFingerprint(q: Record<string, string>): string {
  const canonical = Object.keys(q)
    .filter((k) => k !== 'cursor')
    .sort()
    .map((k) => `${k}=${q[k]}`)
    .join('&');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 10);
}

export function encodeCursor(offset: number, q: Record<string, string>): string {
  return Buffer.from(`${offset}.${queryFingerprint(q)}`).toString('base64url');
}

export function decodeCursor(cursor: string, q: Record<string, string>): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(\d{1,9})\.([A-Za-z0-9_-]{10})$/.exec(text);
  if (!m || m[2] !== queryFingerprint(q)) return null;
  return Number(m[1]);
}

/** A row's search fields; a row of a release built before them searches its name, TFIN and ledgers. */
const searchOf = (r: IndexRow): RowSearch =>
  r.search ?? {
    names: r.name,
    issuer: '',
    kind: '',
    ledgers: r.ledgers.join(' '),
    ids: r.tfin,
    about: '',
  };

/** The registry's search fields (the `q=` description's order) and whole-field values. */
export const ROW_SEARCH: SearchSpec<IndexRow> = {
  fields: {
    names: { text: (r) => searchOf(r).names, boost: 4 },
    issuer: { text: (r) => searchOf(r).issuer, boost: 3 },
    kind: { text: (r) => searchOf(r).kind, boost: 2 },
    ledgers: { text: (r) => searchOf(r).ledgers, boost: 1.5 },
    ids: { text: (r) => searchOf(r).ids, boost: 1.5 },
    about: { text: (r) => searchOf(r).about, boost: 0.5 },
  },
  whole: (r) => [
    r.tfin,
    r.name,
    ...searchOf(r).names.split('\n'),
    r.isin,
    searchOf(r).issuer.split('\n')[0],
  ],
};

/**
 * The rows a query selects, in its order (JSON pages and the bulk representations share it):
 * read from the registry's query index (registry-query.ts), never by scanning the rows.
 */
export function selectRows(
  core: Pick<DatasetCore, 'registry'>,
  q: Record<string, string>,
): readonly IndexRow[] {
  const all = core.registry.rows;
  const order = q['sort'] ? prepareSortOrders(all).get(q['sort'])! : null;
  const filtering = FILTERS.some((f) => q[f] && f !== 'q');
  // Without a filter the order itself is the selection (no copy of 100,000 rows).
  if (!filtering && !q['q']) return order ?? all;
  const index = registryQuery(all, ROW_SEARCH);
  const filtered = filtering ? filterRows(index, q) : null;
  let selected: ArrayLike<number> = filtered!;
  if (q['q']) {
    const hits = searchRows(index, q['q']);
    selected = filtered ? keepIn(hits, filtered) : hits;
  }
  // With `sort`, the sort's order restricted to the selection; else the ranking (or the list's order).
  if (order) return inOrder(all, order, selected);
  const out = new Array<IndexRow>(selected.length);
  for (let i = 0; i < selected.length; i++) out[i] = all[selected[i]!]!;
  return out;
}

export type ListResult =
  { ok: true; body: AssetListBody } | { ok: false; reason: 'invalid_cursor' | 'invalid_limit' };

export type PageResult =
  | { ok: true; page: readonly IndexRow[]; meta: AssetListBody['meta'] }
  | { ok: false; reason: 'invalid_cursor' | 'invalid_limit' };

/** A page's rows and its meta: the list body but for the rows' summaries. */
export function registryPage(core: RegistrySource['core'], q: Record<string, string>): PageResult {
  // Paging only when asked: without `limit`, every selected record.
  const limit = q['limit'] ? Number(q['limit']) : Infinity;
  if (!(limit >= 1 && (limit <= MAX_LIMIT || limit === Infinity)))
    return { ok: false, reason: 'invalid_limit' };
  let offset = 0;
  if (q['cursor']) {
    const decoded = decodeCursor(q['cursor'], q);
    if (decoded === null) return { ok: false, reason: 'invalid_cursor' };
    offset = decoded;
  }
  const selected = selectRows(core, q);
  const page = selected.slice(offset, offset + limit);
  const nextOffset = offset + page.length;
  return {
    ok: true,
    page,
    meta: {
      ...datasetMeta(core, core.registry.as_of),
      count: page.length,
      total: selected.length,
      ...(q['sort']?.endsWith('amount_usd')
        ? { without_usd: selected.filter((r) => (r.amount_usd ?? null) === null).length }
        : {}),
      coverage: core.registry.coverage,
      query: Object.fromEntries(Object.entries(q).filter(([k]) => k !== 'cursor')),
      next_cursor: nextOffset < selected.length ? encodeCursor(nextOffset, q) : null,
    },
  };
}

export function registryList(source: RegistrySource, q: Record<string, string>): ListResult {
  const result = registryPage(source.core, q);
  if (!result.ok) return result;
  return {
    ok: true,
    body: { data: result.page.map((row) => source.summaryOf(row.tfin)), meta: result.meta },
  };
}

/** The registry's query index, as the bodies pass writes it into the build (registry-query.ts). */
export const buildRegistryQueryIndex = (rows: readonly IndexRow[]): RegistryQueryData =>
  buildRegistryQuery(rows, ROW_SEARCH);

/** Serves `rows` from the index the build made (at start): no instance makes it again. */
export function useRegistryQueryIndex(rows: readonly IndexRow[], data: RegistryQueryData): void {
  useRegistryQuery(rows, data, ROW_SEARCH);
  // Each sort order's positions too, so that a sorted, filtered page never pays for them.
  for (const order of prepareSortOrders(rows).values()) positionsOf(rows, order);
}
