// The operations table: the five operations under /v1, written down once. The router, the
// OpenAPI document, the prebuilt list, the post-build check, the pages and the tests read it;
// each operation's answer (answers.ts) is the authority for what it sends. Adding a parameter
// or an operation is one entry here plus its answer.
import type { DatasetCore } from '../dataset/artifact.ts';
import type { ProblemCode } from '../domain/errors.ts';
import { BULK_FORMATS, MICA_COLUMNS, REGISTRY_COLUMNS, STABLECOIN_COLUMNS } from './bulk.ts';
import type { BulkFormat } from './bulk.ts';
import { STABLECOIN_PARAMS } from './market-query.ts';
import { MICA_PARAMS } from './mica-query.ts';
import type { ParamSpec } from './params.ts';
import { registryListParams } from './registry-list.ts';
import { LOOKUP_PARAMS } from './registry-lookup.ts';

/**
 * How an operation is answered: `dataset` — the unfiltered body is prerendered at build and
 * filtered views are computed from the same dataset; `lookup` — on demand, one asset from the
 * packed profiles; `status` — live figures, never cached by shared caches.
 */
export type OperationKind = 'dataset' | 'lookup' | 'status';

export interface Operation {
  path: string;
  operationId: string;
  kind: OperationKind;
  tag: string;
  summary: string;
  description: string;
  /** The query parameters (ParamSpec lists: validation and the document alike). */
  params(dataset: DatasetCore): ParamSpec[];
  /** The component schema of a 200 body. */
  response: string;
  /** Problems this operation answers besides the common ones (document.ts COMMON_ERRORS). */
  errors: ProblemCode[];
  /** Example values for the parameters, real ones from the dataset (a sample answers 200). */
  examples(dataset: DatasetCore): Record<string, string>;
  /** Bulk representations: the formats, the CSV columns and what one NDJSON line is. */
  bulk?: { formats: readonly BulkFormat[]; columns: readonly string[]; record: string };
}

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
      'Every registry record (single assets, programmes and the series of a programme) with its TFIN, kind, risk vectors, MiCA status, custody metadata (with custody grade) and validation level (`validation_level=L1` keeps verified records only). Without parameters the prebuilt list is served; filters, sorting and cursor paging are computed on request.',
    params: registryListParams,
    response: 'AssetList',
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'invalid_cursor',
      'dataset_version_not_found',
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
      formats: BULK_FORMATS,
      columns: REGISTRY_COLUMNS.map((c) => c.name),
      record: 'an `AssetSummary`',
    },
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
    response: 'AssetProfileResponse',
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
    response: 'StablecoinsResponse',
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'dataset_version_not_found',
      'not_acceptable',
    ],
    examples: (dataset) => ({ peg_currency: 'EUR', dataset_version: dataset.dataset_version }),
    bulk: {
      formats: BULK_FORMATS,
      columns: STABLECOIN_COLUMNS.map((c) => c.name),
      record: 'one stablecoin record (`StablecoinsResponse` → `data.stablecoins[]`)',
    },
  },
  {
    path: '/v1/compliance/mica-status',
    operationId: 'getMicaStatus',
    kind: 'dataset',
    tag: 'Compliance',
    summary: 'MiCA indicators and member-state readiness',
    description:
      'Indicators for e-money tokens, asset-referenced tokens, crypto-asset service providers and the DLT Pilot Regime, a readiness score with its components for each of the 27 EU member states, and the jurisdictions covered.',
    params: () => MICA_PARAMS,
    response: 'MicaStatusResponse',
    errors: [
      'invalid_parameter',
      'repeated_parameter',
      'member_state_not_found',
      'dataset_version_not_found',
      'not_acceptable',
    ],
    examples: (dataset) => ({ member_state: 'DE', dataset_version: dataset.dataset_version }),
    bulk: {
      formats: BULK_FORMATS,
      columns: MICA_COLUMNS.map((c) => c.name),
      record: 'one member state (`MicaStatusResponse` → `data.member_states[]`)',
    },
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
    response: 'SystemStatusResponse',
    errors: ['not_acceptable'],
    examples: () => ({}),
  },
] as const satisfies readonly Operation[];

export type OperationPath = (typeof OPERATIONS)[number]['path'];

/** The paths of the five operations, in the table's order. */
export const OPERATION_PATHS: readonly OperationPath[] = OPERATIONS.map((o) => o.path);

/** The dataset operations: their unfiltered JSON body is prerendered at build. */
export const PRERENDERED_VIEWS = OPERATIONS.filter((o) => o.kind === 'dataset').map(
  (o) => o.path,
) as readonly OperationPath[];

/** The dataset operations with bulk representations (CSV, NDJSON); the build writes their unfiltered bodies. */
export const BULK_ROUTES = OPERATIONS.filter((o) => 'bulk' in o).map(
  (o) => o.path,
) as readonly OperationPath[];

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

const BY_PATH = new Map<string, Operation>(OPERATIONS.map((o) => [o.path, o]));

export function operationAt(path: string): Operation | undefined {
  return BY_PATH.get(path);
}

export function isOperation(path: string): boolean {
  return BY_PATH.has(path);
}
