// The OpenAPI 3.1 document, built at build time from the same zod schemas, parameter specs and
// error catalogue that the service validates and answers with. Served at /openapi.json.
import { z } from 'zod';
import '../domain/api.ts';
import '../domain/api-market.ts';
import '../domain/api-status.ts';
import { API_VERSION } from '../domain/api.ts';
import { PROBLEMS, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../domain/errors.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import { STABLECOIN_PARAMS } from '../api/market-query.ts';
import { MICA_PARAMS } from '../api/mica-query.ts';
import type { ParamSpec } from '../api/params.ts';
import { LOOKUP_PARAMS } from '../api/registry-lookup.ts';
import { registryListParams } from '../api/registry-list.ts';
import {
  LIST_SEPARATOR,
  MEDIA_TYPES,
  MICA_COLUMNS,
  REGISTRY_COLUMNS,
  STABLECOIN_COLUMNS,
} from '../api/bulk.ts';

type Json = Record<string, unknown>;

interface OperationDoc {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  params: ParamSpec[];
  required?: string[];
  response: string;
  errors: ProblemCode[];
  examples: Record<string, string>;
  /** Bulk representations: the CSV columns and what one NDJSON line is. */
  bulk?: { columns: readonly string[]; record: string };
}

/** Problems any operation can answer (request form, access, limits, failures). */
export const COMMON_ERRORS: ProblemCode[] = [
  'unknown_parameter',
  'malformed_request',
  'api_key_in_query',
  'missing_api_key',
  'invalid_api_key',
  'demo_key_disabled',
  'uri_too_long',
  'rate_limited',
  'too_many_failed_attempts',
  'headers_too_large',
  'internal_error',
  'service_unavailable',
];

export function operations(dataset: DatasetCore): OperationDoc[] {
  const tfin =
    dataset.registry.rows.find((a) => a.tfin.startsWith('TFIN-FUND'))?.tfin ??
    dataset.registry.rows[0]!.tfin;
  // Real identifiers for the examples, so that a generated client's samples answer 200.
  const rows = dataset.registry.rows;
  const version = dataset.dataset_version;
  const isin = rows.find((r) => r.isin)?.isin;
  const lei = rows.find((r) => r.lei)?.lei;
  const contract = rows.find((r) => r.contracts?.length)?.contracts?.[0];
  const dti = rows.find((r) => r.dti)?.dti;
  const real = (entries: Record<string, string | null | undefined>) =>
    Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => !!e[1]));
  return [
    {
      path: '/v1/registry/assets',
      operationId: 'listRegistryAssets',
      tag: 'Registry',
      summary: 'List verified tokenized assets',
      description:
        'Every verified asset with its TFIN, risk vectors, MiCA status and custody metadata (with custody grade). Without parameters the prebuilt list is served; filters, sorting and cursor paging are computed on request.',
      params: registryListParams(dataset),
      response: 'AssetList',
      errors: [
        'invalid_parameter',
        'repeated_parameter',
        'invalid_cursor',
        'dataset_version_not_found',
      ],
      examples: {
        asset_class: 'FUND',
        ledger: 'ETH',
        dataset_version: version,
        ...real({ isin, lei }),
      },
      bulk: { columns: REGISTRY_COLUMNS.map((c) => c.name), record: 'an `AssetSummary`' },
    },
    {
      path: '/v1/registry/asset',
      operationId: 'getRegistryAsset',
      tag: 'Registry',
      summary: 'Full profile of one asset',
      description:
        "The full profile of one asset: validation level, ISIN mapping, settlement, TFIC classification, GTDS compliance level, sources. Select the asset with exactly one of `tfin`, `isin`, `contract` (`<LEDGER>:<address>`, EVM addresses in any case) or `dti`; `meta.matched_by` says which identifier matched. Several selectors are a 400 `conflicting_parameters`; none a 400 `missing_parameter`; an identifier carried by several assets a 409 `ambiguous_identifier` listing the candidates' TFINs; a well-formed but unknown one a 404 (for a TFIN, with the closest known IDs). `include=history` adds the amount's history; without it the body omits `amount.history`.",
      params: LOOKUP_PARAMS,
      response: 'AssetProfileResponse',
      errors: [
        'invalid_parameter',
        'repeated_parameter',
        'missing_parameter',
        'conflicting_parameters',
        'asset_not_found',
        'dataset_version_not_found',
        'ambiguous_identifier',
      ],
      examples: { tfin, dataset_version: version, ...real({ isin, contract, dti }) },
    },
    {
      path: '/v1/market/stablecoins',
      operationId: 'getStablecoinMarket',
      tag: 'Market',
      summary: 'Stablecoin dominance, MiCA ratings and adoption',
      description:
        "Dominance among the named stablecoins (overall and within each peg currency, summing to 100 %), the MiCA compliance rating of each, and institutional adoption across 24 trading venues. Filters narrow the stablecoin list; dominance always covers the full named set. `include=history` adds each figure's history; without it the records omit `history`.",
      params: STABLECOIN_PARAMS,
      response: 'StablecoinsResponse',
      errors: ['invalid_parameter', 'repeated_parameter', 'dataset_version_not_found'],
      examples: { peg_currency: 'EUR', dataset_version: version },
      bulk: {
        columns: STABLECOIN_COLUMNS.map((c) => c.name),
        record: 'one stablecoin record (`StablecoinsResponse` → `data.stablecoins[]`)',
      },
    },
    {
      path: '/v1/compliance/mica-status',
      operationId: 'getMicaStatus',
      tag: 'Compliance',
      summary: 'MiCA indicators and member-state readiness',
      description:
        'Indicators for e-money tokens, asset-referenced tokens, crypto-asset service providers and the DLT Pilot Regime, a readiness score with its components for each of the 27 EU member states, and the jurisdictions covered.',
      params: MICA_PARAMS,
      response: 'MicaStatusResponse',
      errors: [
        'invalid_parameter',
        'repeated_parameter',
        'member_state_not_found',
        'dataset_version_not_found',
      ],
      examples: { member_state: 'DE', dataset_version: version },
      bulk: {
        columns: MICA_COLUMNS.map((c) => c.name),
        record: 'one member state (`MicaStatusResponse` → `data.member_states[]`)',
      },
    },
    {
      path: '/v1/system/status',
      operationId: 'getSystemStatus',
      tag: 'System',
      summary: 'Live platform status',
      description:
        'Uptime and availability (24 h, 7 d, 30 d) beside the 99.99 % Enterprise target, latency percentiles per endpoint (5 min, 1 h, 24 h) and platform statistics, read from the service database and cached for about a second.',
      params: [],
      response: 'SystemStatusResponse',
      errors: [],
      examples: {},
    },
  ];
}

function parameterDoc(spec: ParamSpec, required: boolean, example: string | undefined): Json {
  const schema: Json = { type: 'string', maxLength: spec.maxLength ?? 200 };
  if (spec.values) schema['enum'] = [...spec.values];
  else if (spec.pattern) schema['pattern'] = spec.pattern.source;
  const ex = example ?? spec.example;
  return {
    name: spec.name,
    in: 'query',
    required,
    description: spec.description,
    schema,
    ...(ex ? { example: ex } : {}),
  };
}

const RATE_HEADERS: Json = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
};
/** Headers on every API response (CORS for browsers, the request id for support). */
const COMMON_HEADERS: Json = {
  'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' },
  'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
};

/** Bounds for what the zod source leaves open, so every schema states a limit (OWASP API4). */
export const DEFAULT_MAX_STRING = 4000;
export const DEFAULT_MAX_ITEMS = 10_000;

export function harden(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(harden);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    const named = k === 'properties' || k === '$defs' || k === 'patternProperties';
    out[k] = named
      ? Object.fromEntries(Object.entries(v as Json).map(([name, sub]) => [name, harden(sub)]))
      : harden(v);
  }
  const types = Array.isArray(out['type']) ? (out['type'] as string[]) : [out['type']];
  const open = out['enum'] === undefined && out['const'] === undefined;
  if (types.includes('string') && out['maxLength'] === undefined && open)
    out['maxLength'] = DEFAULT_MAX_STRING;
  if (types.includes('integer') && out['format'] === undefined) out['format'] = 'int64';
  if (types.includes('array') && out['maxItems'] === undefined) out['maxItems'] = DEFAULT_MAX_ITEMS;
  return out;
}

function problemResponse(codes: ProblemCode[]): Json {
  const status = PROBLEMS[codes[0]!].status;
  return {
    description: codes.map((c) => `\`${c}\`: ${PROBLEMS[c].title}`).join('; '),
    headers: {
      ...COMMON_HEADERS,
      ...RATE_HEADERS,
      ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
      ...(status === 401
        ? { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } }
        : {}),
    },
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: '#/components/schemas/Problem' },
        examples: Object.fromEntries(
          codes.map((c) => [
            c,
            {
              summary: PROBLEMS[c].title,
              value: {
                type: `/docs/errors#${c}`,
                title: PROBLEMS[c].title,
                status: PROBLEMS[c].status,
                detail: PROBLEMS[c].explain.replaceAll('`', ''),
                instance: 'urn:uuid:00000000-0000-4000-8000-000000000000',
                code: c,
              },
            },
          ]),
        ),
      },
    },
  };
}

function operationDoc(op: OperationDoc): Json {
  const errors = [...op.errors, ...COMMON_ERRORS];
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of errors)
    byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  const content: Json = {
    'application/json': { schema: { $ref: `#/components/schemas/${op.response}` } },
  };
  if (op.bulk) {
    content[MEDIA_TYPES.csv.split(';')[0]!] = {
      schema: { type: 'string', maxLength: 2_000_000_000 },
      example: `${op.bulk.columns.join(',')}\r\n`,
    };
    content[MEDIA_TYPES.ndjson] = {
      schema: { type: 'string', maxLength: 2_000_000_000 },
    };
  }
  const bulkDoc = op.bulk
    ? ` With \`Accept: text/csv\` or \`format=csv\`: CSV (RFC 4180, UTF-8, CRLF line ends, a header row, one row per record, every matching record in the query's order, unpaged). Columns, named by their JSON path: ${op.bulk.columns.map((c) => `\`${c}\``).join(', ')}; an empty cell is null, a list is joined with \`${LIST_SEPARATOR}\`. With \`Accept: application/x-ndjson\` or \`format=ndjson\`: one JSON record a line, ${op.bulk.record}. Each representation has its own ETag; responses carry \`Vary: Accept, Accept-Encoding\`.`
    : '';
  const responses: Json = {
    '200': {
      description: `OK.${bulkDoc}`,
      headers: {
        ...COMMON_HEADERS,
        ETag: { $ref: '#/components/headers/ETag' },
        'Cache-Control': { $ref: '#/components/headers/CacheControl' },
        ...RATE_HEADERS,
      },
      content,
    },
    '304': {
      description: 'Not modified: the representation matching `If-None-Match` is current.',
      headers: { ...COMMON_HEADERS, ETag: { $ref: '#/components/headers/ETag' }, ...RATE_HEADERS },
    },
  };
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0]))
    responses[String(status)] = problemResponse(codes);
  return {
    get: {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      parameters: [
        ...op.params.map((p) =>
          parameterDoc(p, op.required?.includes(p.name) ?? false, op.examples[p.name]),
        ),
        { $ref: '#/components/parameters/IfNoneMatch' },
      ],
      responses,
    },
  };
}

export function componentSchemas(): Record<string, Json> {
  const all = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(all.schemas)) {
    const { $schema: _ignored, $id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

export function openApiDocument(dataset: DatasetCore): Json {
  const ops = operations(dataset);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tokenized Asset Intelligence API',
      version: `${API_VERSION} (dataset ${dataset.dataset_version})`,
      summary:
        'Verified tokenized institutional assets, stablecoin market structure, EU MiCA compliance intelligence and live platform status.',
      description: [
        'A read-only JSON API for institutional users. Every success body is `{ "data": …, "meta": { … } }`; `meta` carries the API version, the registry data standard (1.2, May 2026), the methodology audit standard (GTDS 2.1), the dataset version, `as_of` and `generated_at`.',
        '',
        '**Versioning.** The major version is in the path (`/v1`). Within v1, changes are additive; a breaking change gets a new path, and a retiring version announces itself with `Deprecation` and `Sunset` headers.',
        '',
        '**Access.** Send your key in `X-API-Key` or as `Authorization: Bearer <key>` — never in the query string. `DEMO_KEY` is a public demo key limited per client address. Institutional subscription: 499 EUR/month. Enterprise: contact sales (99.99 % SLA, dedicated high-bandwidth endpoints).',
        '',
        '**Caching.** Responses carry a strong `ETag`; send it back in `If-None-Match` for a `304`. Bodies are compressed with brotli or gzip when asked.',
        '',
        '**Rate limits.** Each response carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers); a `429` carries `Retry-After`.',
        '',
        '**Errors.** RFC 9457 problem details (`application/problem+json`) with a stable `code`; each `type` links to its explanation on /docs/errors.',
      ].join('\n'),
      contact: { name: 'Sales and support (see Access on the landing page)' },
      license: {
        name: 'Proprietary data; see terms of subscription',
        identifier: 'LicenseRef-Proprietary',
      },
    },
    servers: [
      { url: '/', description: 'Production: this deployment (public API)', 'x-internal': false },
    ],
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
    tags: [
      { name: 'Registry', description: 'Verified tokenized institutional assets (TFIN registry).' },
      { name: 'Market', description: 'Stablecoin market structure.' },
      { name: 'Compliance', description: 'EU MiCA compliance intelligence.' },
      { name: 'System', description: 'Live platform status.' },
    ],
    paths: Object.fromEntries(ops.map((op) => [op.path, operationDoc(op)])),
    components: {
      securitySchemes: {
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'Your API key, or `DEMO_KEY` to try the API.',
        },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The same key as a bearer token: `Authorization: Bearer <key>`.',
        },
      },
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag from an earlier response; a match answers 304.',
          schema: { type: 'string', maxLength: 200 },
        },
      },
      headers: {
        ETag: {
          description: 'Strong validator of this representation.',
          schema: { type: 'string', maxLength: 100 },
        },
        CacheControl: {
          description: 'Caching directives.',
          schema: { type: 'string', maxLength: 200 },
        },
        RateLimit: {
          description: 'Remaining quota in the current window, e.g. `"default";r=97;t=42`.',
          schema: { type: 'string', maxLength: 200 },
        },
        RateLimitPolicy: {
          description: 'The quota policy, e.g. `"default";q=100;w=60`.',
          schema: { type: 'string', maxLength: 200 },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86400 },
        },
        WWWAuthenticate: {
          description: 'The authentication scheme expected.',
          schema: { type: 'string', maxLength: 200 },
        },
        'Access-Control-Allow-Origin': {
          description: 'CORS: any origin may read the API (no credentials are used).',
          schema: { type: 'string', const: '*' },
        },
        XRequestId: {
          description:
            'Identifies the request in our logs; the `instance` of a problem carries it too.',
          schema: { type: 'string', format: 'uuid', maxLength: 36 },
        },
      },
      schemas: harden(componentSchemas()) as Record<string, Json>,
    },
  };
}
