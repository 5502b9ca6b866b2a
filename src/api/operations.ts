// The operations table: the five operations under /v1, written down once. Everything that names
// an operation derives from its entry here: the router, the answers (answers.ts, by operationId),
// the computed views in every format (dataset-views.ts, operation-views.ts, formats.ts), the OpenAPI document,
// the published response schemas (authoring/published-schemas.ts), the release manifest's record
// links (record-urls.ts), the prebuilt list, postbuild, the edge and the pages. Adding a parameter or an
// operation is one entry here plus its answer; test/unit/operations-table.test.ts proves a new
// entry reaches each place and that no other file writes an operation's path.
import { z } from 'zod';
import type { DatasetCore } from '../dataset/artifact.ts';
import type { RecordKind } from '../dataset/release-manifest.ts';
import { assetListBody, assetProfileBody } from '../domain/api.ts';
import { micaStatusBody, stablecoinsBody } from '../domain/api-market.ts';
import { systemStatusBody } from '../domain/api-status.ts';
import type { ProblemCode } from '../domain/errors.ts';
import { API_ROOT } from './api-root.ts';
import { MICA_COLUMNS, REGISTRY_COLUMNS, STABLECOIN_COLUMNS, type Column } from './bulk.ts';
import { STABLECOIN_PARAMS } from './market-query.ts';
import { MICA_PARAMS } from './mica-query.ts';
import {
  micaStatusView,
  registryListView,
  stablecoinsView,
  type DatasetSource,
  type ViewContext,
} from './operation-views.ts';
import type { ParamSpec } from './params.ts';
import { registryListParams } from './registry-list.ts';
import { LOOKUP_PARAMS } from './registry-lookup.ts';

export { API_ROOT, underApiRoot } from './api-root.ts';

/**
 * How an operation is answered: `dataset` — the unfiltered body is prerendered at build and
 * filtered views are computed from the same dataset; `lookup` — on demand, one asset from the
 * packed profiles; `status` — live figures, never cached by shared caches.
 */
export type OperationKind = 'dataset' | 'lookup' | 'status';

interface OperationEntry {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The query parameters (ParamSpec lists: validation and the document alike). */
  params(dataset: DatasetCore): ParamSpec[];
  /**
   * The zod schema of a 200 body, registered with an id (`.meta({ id })`): the OpenAPI component
   * and the published JSON Schema (schemas/v1/…) are made from it.
   */
  response: z.ZodType;
  /** Problems this operation answers besides the common ones (document.ts COMMON_ERRORS). */
  errors: ProblemCode[];
  /** Example values for the parameters, real ones from the dataset (a sample answers 200). */
  examples(dataset: DatasetCore): Record<string, string>;
  /**
   * The release manifest's record kinds this operation answers with (the changelog links each
   * record to it), and the parameter that selects one record (null: the record is only served
   * inside the whole body).
   */
  records?: Partial<Record<RecordKind, string | null>>;
}

/**
 * What the bulk formats (CSV, NDJSON: every one registered in formats.ts) write of the
 * operation's records: the columns (a CSV's, named by their JSON path) and what one NDJSON line is.
 */
export interface BulkSpec {
  columns: readonly Column<never>[];
  record: string;
  /**
   * One line per registry record, in the list's default order: a filtered export is sliced from
   * the prebuilt one line by line, and the unfiltered body is written from the records' summaries.
   */
  perRecord?: true;
}

export interface DatasetOperation extends OperationEntry {
  kind: 'dataset';
  /**
   * Its answers to a query (operation-views.ts): the JSON body and the records; every format is
   * rendered from them (formats.ts). The unfiltered bodies are prerendered from it.
   */
  view(context: ViewContext): DatasetSource;
  bulk: BulkSpec;
}

export interface OnDemandOperation extends OperationEntry {
  kind: Exclude<OperationKind, 'dataset'>;
  view?: never;
  bulk?: never;
}

export type Operation = DatasetOperation | OnDemandOperation;

/** Real identifiers from the dataset, for examples. */
function realIdentifiers(dataset: DatasetCore) {
  const rows = dataset.registry.rows;
  const tfin = rows.find((a) => a.tfin.startsWith('TFIN-FUND'))?.tfin ?? rows[0]!.tfin;
  const real = (entries: Record<string, string | null | undefined>) =>
    Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => !!e[1]));
  return {
    tfin,
    version: dataset.dataset_version,
    isin: rows.find((r) => r.isin)?.isin,
    lei: rows.find((r) => r.lei)?.lei,
    contract: rows.find((r) => r.contracts?.length)?.contracts?.[0],
    dti: rows.find((r) => r.dti)?.dti,
    real,
  };
}

/** The API offers exactly these operations under /v1. */
export const OPERATIONS = [
  {
    path: '/v1/registry/assets',
    operationId: 'listRegistryAssets',
    kind: 'dataset',
    tag: 'Registry',
    summary: 'List tokenized assets and series',
    description:
      'Every registry record (single assets, programmes and the series of a programme) with its TFIN, kind, risk vectors, MiCA status, custody metadata (with custody grade) and validation level (`validation_level=L1` keeps verified records only). Without parameters the answer is every record (the prebuilt list); filters and sorting are computed on request, and `limit` and `cursor` page only when asked. The CSV and NDJSON forms carry the identifiers professionals join on: kind, programme, ISIN, issuer LEI, validation level and `contracts` (`<LEDGER>:<address>` per ledger entry).',
    params: registryListParams,
    response: assetListBody,
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'invalid_cursor',
      'dataset_version_not_found',
      'tier_required',
      'not_acceptable',
    ],
    examples(dataset) {
      const { version, isin, lei, real } = realIdentifiers(dataset);
      return {
        asset_class: 'FUND',
        ledger: 'ETH',
        dataset_version: version,
        ...real({ isin, lei }),
      };
    },
    bulk: {
      columns: REGISTRY_COLUMNS,
      record: 'an `AssetSummary`',
      perRecord: true,
    },
    view: registryListView,
  },
  {
    path: '/v1/registry/asset',
    operationId: 'getRegistryAsset',
    kind: 'lookup',
    tag: 'Registry',
    summary: 'Full profile of one asset',
    description:
      "The full profile of one asset: validation level, ISIN mapping, settlement, TFIC classification, GTDS compliance level, sources. Select the asset with exactly one of `tfin`, `isin`, `contract` (`<LEDGER>:<address>`, EVM addresses in any case) or `dti`; `meta.matched_by` says which identifier matched. Several selectors are a 400 `conflicting_parameters`; none a 400 `missing_parameter`; an identifier carried by several assets a 409 `ambiguous_identifier` listing the candidates' TFINs; a well-formed but unknown one a 404 (for a TFIN, with the closest known IDs). `include=history` adds the amount's history; without it the body omits `amount.history`.",
    params: () => LOOKUP_PARAMS,
    response: assetProfileBody,
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'missing_parameter',
      'conflicting_parameters',
      'asset_not_found',
      'dataset_version_not_found',
      'ambiguous_identifier',
      'not_acceptable',
    ],
    examples(dataset) {
      const { tfin, version, isin, contract, dti, real } = realIdentifiers(dataset);
      return { tfin, dataset_version: version, ...real({ isin, contract, dti }) };
    },
    records: { assets: 'tfin' },
  },
  {
    path: '/v1/market/stablecoins',
    operationId: 'getStablecoinMarket',
    kind: 'dataset',
    tag: 'Market',
    summary: 'Stablecoin dominance, MiCA ratings and adoption',
    description:
      "Dominance among the named stablecoins (overall and within each peg currency, summing to 100 %), the MiCA compliance rating of each, and institutional adoption across 24 trading venues. Filters narrow the stablecoin list; dominance always covers the full named set. `include=history` adds each figure's history; without it the records omit `history`.",
    params: () => STABLECOIN_PARAMS,
    response: stablecoinsBody,
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'dataset_version_not_found',
      'tier_required',
      'not_acceptable',
    ],
    examples: (dataset) => ({ peg_currency: 'EUR', dataset_version: dataset.dataset_version }),
    bulk: {
      columns: STABLECOIN_COLUMNS,
      record: 'one stablecoin record (`StablecoinsResponse` → `data.stablecoins[]`)',
    },
    view: stablecoinsView,
    records: { stablecoins: 'q', venues: null },
  },
  {
    path: '/v1/compliance/mica-status',
    operationId: 'getMicaStatus',
    kind: 'dataset',
    tag: 'Compliance',
    summary: 'MiCA indicators and member-state readiness',
    description:
      'Indicators for e-money tokens, asset-referenced tokens, crypto-asset service providers and the DLT Pilot Regime, a readiness score with its components for each of the 27 EU member states, and the MiCA regime table of jurisdictions (EU member states, EEA EFTA states and other markets).',
    params: () => MICA_PARAMS,
    response: micaStatusBody,
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'member_state_not_found',
      'dataset_version_not_found',
      'tier_required',
      'not_acceptable',
    ],
    examples: (dataset) => ({ member_state: 'DE', dataset_version: dataset.dataset_version }),
    bulk: {
      columns: MICA_COLUMNS,
      record: 'one member state (`MicaStatusResponse` → `data.member_states[]`)',
    },
    view: micaStatusView,
    records: { member_states: 'member_state' },
  },
  {
    path: '/v1/system/status',
    operationId: 'getSystemStatus',
    kind: 'status',
    tag: 'System',
    summary: 'Live platform status',
    description:
      'Uptime and availability (24 h, 7 d, 30 d) beside the 99.99 % Enterprise target, latency percentiles per endpoint (5 min, 1 h, 24 h) and platform statistics, read from the service database and cached for about a second.',
    params: () => [],
    response: systemStatusBody,
    errors: ['not_acceptable'],
    examples: () => ({}),
  },
] as const satisfies readonly Operation[];

export type OperationPath = (typeof OPERATIONS)[number]['path'];
export type OperationId = (typeof OPERATIONS)[number]['operationId'];

/** A table of operations and what is read from it (the real one, or a test's extended one). */
export interface OperationsTable {
  /** The entries, in the table's order. */
  readonly list: readonly Operation[];
  readonly paths: readonly string[];
  /** The dataset operations: their unfiltered JSON body is prerendered at build. */
  readonly datasets: readonly DatasetOperation[];
  /** The dataset operations with bulk representations (CSV, NDJSON): every one. */
  readonly bulk: readonly DatasetOperation[];
  at(path: string): Operation | undefined;
  byId(operationId: string): Operation | undefined;
}

/**
 * The table over `entries`, checked: paths unique and under API_ROOT, ids unique, each record
 * kind answered by at most one operation (a changelog link has one target), at most one export
 * of one line per registry record.
 */
export function operationsTable(entries: readonly Operation[]): OperationsTable {
  const byPath = new Map<string, Operation>();
  const byId = new Map<string, Operation>();
  const recordKinds = new Set<string>();
  let perRecord: string | null = null;
  for (const op of entries) {
    if (!op.path.startsWith(`${API_ROOT}/`))
      throw new Error(`${op.path} is not under ${API_ROOT}/`);
    if (byPath.has(op.path)) throw new Error(`two operations at ${op.path}`);
    if (byId.has(op.operationId)) throw new Error(`two operations named ${op.operationId}`);
    for (const kind of Object.keys(op.records ?? {})) {
      if (recordKinds.has(kind)) throw new Error(`two operations answer the ${kind} records`);
      recordKinds.add(kind);
    }
    if (op.kind === 'dataset' && op.bulk.perRecord) {
      // The build streams one export from the records' profiles (src/authoring/prebuilt-bodies.ts).
      if (perRecord)
        throw new Error(`two operations export one line per record: ${perRecord}, ${op.path}`);
      perRecord = op.path;
    }
    byPath.set(op.path, op);
    byId.set(op.operationId, op);
  }
  const datasets = entries.filter((o): o is DatasetOperation => o.kind === 'dataset');
  return {
    list: entries,
    paths: entries.map((o) => o.path),
    datasets,
    bulk: datasets,
    at: (path) => byPath.get(path),
    byId: (operationId) => byId.get(operationId),
  };
}

export const OPERATIONS_TABLE: OperationsTable = operationsTable(OPERATIONS);

/** The paths of the five operations, in the table's order. */
export const OPERATION_PATHS = OPERATIONS_TABLE.paths as readonly OperationPath[];

/** The dataset operations: their unfiltered JSON body is prerendered at build. */
export const PRERENDERED_VIEWS = OPERATIONS_TABLE.datasets.map(
  (o) => o.path,
) as readonly OperationPath[];

/** The dataset operations with bulk representations (CSV, NDJSON); the build writes their unfiltered bodies. */
export const BULK_ROUTES = OPERATIONS_TABLE.bulk.map((o) => o.path) as readonly OperationPath[];

/** The id the response schema is registered with: its OpenAPI component's name. */
export function responseComponent(op: Operation): string {
  const id = z.globalRegistry.get(op.response)?.id;
  if (!id) throw new Error(`${op.operationId}: the response schema has no id (.meta({ id }))`);
  return id;
}

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** The operation whose bulk lines are one per registry record (the registry list), if any. */
export const PER_RECORD_OPERATION = OPERATIONS_TABLE.bulk.find((o) => o.bulk.perRecord);

export function operationAt(path: string): Operation | undefined {
  return OPERATIONS_TABLE.at(path);
}
