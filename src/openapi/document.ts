// The OpenAPI 3.1 document, built at build time from the same zod schemas, parameter specs and
// error catalogue that the service validates and answers with. Served at /openapi.json.
import { z } from 'zod';
import '../domain/api.ts';
import '../domain/api-market.ts';
import '../domain/api-status.ts';
import { API_VERSION } from '../domain/api.ts';
import { PROBLEMS, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../domain/errors.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import type { ParamSpec } from '../api/params.ts';
import { OPERATIONS_TABLE, responseComponent, type OperationsTable } from '../api/operations.ts';
import { DELIVERY_PARAM, LIST_SEPARATOR, MEDIA_TYPES } from '../api/bulk.ts';
import { applyDescriptions } from '../domain/schema-descriptions.ts';

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
  'conflicting_credentials',
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

/** The operations table (src/api/operations.ts) with its dataset-dependent parts filled in. */
export function operations(
  dataset: DatasetCore,
  table: OperationsTable = OPERATIONS_TABLE,
): OperationDoc[] {
  return table.list.map((op) => ({
    path: op.path,
    operationId: op.operationId,
    tag: op.tag,
    summary: op.summary,
    description: op.description,
    params: op.params(dataset),
    response: responseComponent(op),
    errors: [...op.errors],
    examples: op.examples(dataset),
    ...(op.bulk
      ? { bulk: { columns: op.bulk.columns.map((c) => c.name), record: op.bulk.record } }
      : {}),
  }));
}

/** An OpenAPI parameter object: every parameter of the document has this shape. */
function parameter(
  where: 'query' | 'header',
  name: string,
  required: boolean,
  description: string,
  schema: Json,
): Json {
  return { name, in: where, required, description, schema };
}

function parameterDoc(spec: ParamSpec, required: boolean, example: string | undefined): Json {
  const schema: Json = spec.integer
    ? { type: 'integer', format: 'int32', ...spec.integer }
    : { type: 'string', maxLength: spec.maxLength ?? 200 };
  if (spec.values) schema['enum'] = [...spec.values];
  else if (spec.pattern && !spec.integer) schema['pattern'] = spec.pattern.source;
  const ex = example ?? spec.example;
  return {
    ...parameter('query', spec.name, required, spec.description, schema),
    ...(ex ? { example: spec.integer ? Number(ex) : ex } : {}),
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
  'Dataset-Version': { $ref: '#/components/headers/DatasetVersion' },
};
/** A deployment with a signing key signs every answer with content (docs/verifying.md "Verifying answers"). */
const SIGNED_HEADERS: Json = {
  'Content-Digest': { $ref: '#/components/headers/ContentDigest' },
  'Signature-Input': { $ref: '#/components/headers/SignatureInput' },
  Signature: { $ref: '#/components/headers/Signature' },
};

/** Bounds for what the zod source leaves open, so every schema states a limit (OWASP API4). */
export const DEFAULT_MAX_STRING = 4000;
export const DEFAULT_MAX_ITEMS = 10_000;

/**
 * `anyOf: [S, { type: 'null' }]` (how zod writes `.nullable()`) as S with `type: [T, 'null']`:
 * the same schema in JSON Schema 2020-12, and one every reader takes as typed (the reference at
 * /docs refuses an untyped schema with a console warning, and takes longer to read it).
 */
function typedNullable(node: Json): Json {
  const options = node['anyOf'];
  if (!Array.isArray(options) || options.length !== 2) return node;
  const isNull = (s: unknown) =>
    !!s && typeof s === 'object' && (s as Json)['type'] === 'null' && Object.keys(s).length === 1;
  const at = options.findIndex(isNull);
  if (at < 0) return node;
  const other = options[1 - at] as Json;
  if (
    typeof other['type'] !== 'string' ||
    ['$ref', 'anyOf', 'oneOf', 'allOf', 'not'].some((k) => k in other)
  )
    return node;
  const { anyOf: _nullable, ...siblings } = node;
  const { const: constant, ...rest } = other;
  const merged: Json = { ...rest, ...siblings, type: [other['type'], 'null'] };
  if (Array.isArray(other['enum'])) merged['enum'] = [...(other['enum'] as unknown[]), null];
  if ('const' in other) merged['enum'] = [constant, null];
  return merged;
}

export function harden(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(harden);
  if (!node || typeof node !== 'object') return node;
  let out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    const named = k === 'properties' || k === '$defs' || k === 'patternProperties';
    out[k] = named
      ? Object.fromEntries(Object.entries(v as Json).map(([name, sub]) => [name, harden(sub)]))
      : harden(v);
  }
  out = typedNullable(out);
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
      ...SIGNED_HEADERS,
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
        ...SIGNED_HEADERS,
      },
      content,
    },
    '304': {
      description: 'Not modified: the representation matching `If-None-Match` is current.',
      headers: { ...COMMON_HEADERS, ETag: { $ref: '#/components/headers/ETag' }, ...RATE_HEADERS },
    },
  };
  // delivery=signed_url (src/server/signed-downloads.ts): the URL of the whole body, not the body.
  if (op.params.some((p) => p.name === DELIVERY_PARAM.name))
    responses['303'] = {
      description:
        'See Other (`delivery=signed_url`, Enterprise keys): `Location` is a short-lived signed URL of the whole unfiltered body in the representation asked for, served by the edge without a key.',
      headers: {
        ...COMMON_HEADERS,
        Location: {
          description: 'The signed download URL (origin-relative).',
          schema: { type: 'string', maxLength: 1000 },
        },
        ...RATE_HEADERS,
        ...SIGNED_HEADERS,
      },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['href', 'expires_at', 'media_type'],
            additionalProperties: false,
            properties: {
              href: { type: 'string', maxLength: 1000, description: 'The URL, as in Location.' },
              expires_at: {
                type: 'string',
                format: 'date-time',
                maxLength: 30,
                description: 'After this instant the URL answers 410.',
              },
              media_type: { type: 'string', maxLength: 100, description: 'What it sends.' },
            },
          },
        },
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
  // Field descriptions kept apart from the shapes (src/domain/field-descriptions.ts).
  applyDescriptions(Object.entries(out));
  return out;
}

/** The document's `info`: the title, the version with the dataset's, and the API's description. */
function apiInfo(dataset: DatasetCore): Json {
  return {
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
      '**Signatures.** With a signing key configured, every answer and problem carries `Content-Digest` (RFC 9530, SHA-256 of the bytes sent) and an RFC 9421 signature (`Signature-Input`, `Signature`; Ed25519) over `@status`, `content-digest`, `content-type` and `dataset-version`; the keys are at /.well-known/jwks.json. An answer read as an older release (`dataset_version=`) names that release: its `Dataset-Version`, `Dataset-Generated-At` and `Dataset-Digest` (the SHA-256 of its dataset body, as its release manifest states), all covered by the signature. See /docs/verifying.',
      '',
      '**Errors.** RFC 9457 problem details (`application/problem+json`) with a stable `code`; each `type` links to its explanation on /docs/errors.',
    ].join('\n'),
    contact: { name: 'Sales and support (see Access on the landing page)' },
    license: {
      name: 'Proprietary data; see terms of subscription',
      identifier: 'LicenseRef-Proprietary',
    },
  };
}

/** The response header fields the operations name (`components.headers`). */
const RESPONSE_HEADERS: Json = {
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
  DatasetVersion: {
    description: 'The data release this deployment serves; covered by the signature.',
    schema: { type: 'string', maxLength: 40 },
  },
  ContentDigest: {
    description: 'RFC 9530: `sha-256=:<base64>:` of the body as sent (each coding its own).',
    schema: { type: 'string', maxLength: 100 },
  },
  SignatureInput: {
    description:
      'RFC 9421: `sig1=("@status" "content-digest" "content-type" "dataset-version");created=…;keyid="…";alg="ed25519"`.',
    schema: { type: 'string', maxLength: 300 },
  },
  Signature: {
    description: 'RFC 9421: `sig1=:<base64 Ed25519 signature>:`; keys at /.well-known/jwks.json.',
    schema: { type: 'string', maxLength: 200 },
  },
  XRequestId: {
    description: 'Identifies the request in our logs; the `instance` of a problem carries it too.',
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  },
};

export function openApiDocument(
  dataset: DatasetCore,
  table: OperationsTable = OPERATIONS_TABLE,
): Json {
  const ops = operations(dataset, table);
  return {
    openapi: '3.1.0',
    info: apiInfo(dataset),
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
        IfNoneMatch: parameter(
          'header',
          'If-None-Match',
          false,
          'An ETag from an earlier response; a match answers 304.',
          { type: 'string', maxLength: 200 },
        ),
      },
      headers: RESPONSE_HEADERS,
      schemas: harden(componentSchemas()) as Record<string, Json>,
    },
  };
}
