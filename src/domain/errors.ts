// The catalogue of problems a client can cause. Each `code` is stable; its `type` resolves to
// its explanation on the errors page (/docs/errors#<code>).
export const PROBLEMS = {
  invalid_parameter: {
    status: 400,
    title: 'Invalid query parameter',
    explain: 'A query parameter has a value outside its documented format or range.',
  },
  unknown_parameter: {
    status: 400,
    title: 'Unknown query parameter',
    explain:
      'The request names a query parameter the operation does not define. The `allowed` member lists the ones it does.',
  },
  repeated_parameter: {
    status: 400,
    title: 'Repeated query parameter',
    explain: 'A parameter that takes one value was given more than once.',
  },
  missing_parameter: {
    status: 400,
    title: 'Missing query parameter',
    explain: 'A required query parameter is absent or empty.',
  },
  conflicting_parameters: {
    status: 400,
    title: 'Conflicting query parameters',
    explain:
      'Parameters that exclude each other were given together: a lookup takes exactly one of `tfin`, `isin`, `contract` and `dti`. `errors` names them.',
  },
  invalid_cursor: {
    status: 400,
    title: 'Invalid paging cursor',
    explain:
      'The `cursor` is not one this service issued for the same query; start again from the first page.',
  },
  malformed_request: {
    status: 400,
    title: 'Malformed request',
    explain:
      'The request target could not be decoded (bad percent-encoding, control characters or a path escaping its root).',
  },
  api_key_in_query: {
    status: 400,
    title: 'API key in the query string',
    explain:
      'Keys travel only in the `X-API-Key` header or as `Authorization: Bearer <key>`: URLs end up in logs, histories and caches. Revoke a key that was sent in a URL.',
  },
  conflicting_credentials: {
    status: 400,
    title: 'Two different API keys',
    explain:
      'The request carries a key in `X-API-Key` and a different one in `Authorization: Bearer`. Send one key (or the same key in both): the service never picks one for you.',
  },
  missing_api_key: {
    status: 401,
    title: 'API key required',
    explain:
      'Every /v1 request needs a key in `X-API-Key` or `Authorization: Bearer`. Use `DEMO_KEY` to try the API.',
    headers: ['WWW-Authenticate'],
  },
  invalid_api_key: {
    status: 401,
    title: 'Invalid API key',
    explain:
      'The key is malformed, unknown or revoked. The answer is the same in each case, so keys cannot be probed.',
    headers: ['WWW-Authenticate'],
  },
  demo_key_disabled: {
    status: 403,
    title: 'Demo key disabled',
    explain: 'This deployment does not accept `DEMO_KEY`; use a subscription key.',
  },
  asset_not_found: {
    status: 404,
    title: 'Asset not found',
    explain:
      'The identifier is well formed but no registry record carries it. For a TFIN, `suggestions` lists the closest known IDs (empty for the other identifiers).',
  },
  dataset_version_not_found: {
    status: 404,
    title: 'Dataset version not kept',
    explain:
      'The `dataset_version` is well formed but not one this deployment answers: the current data and the releases committed with it (`data/releases/`). `allowed` lists the versions available.',
  },
  member_state_not_found: {
    status: 404,
    title: 'Member state not found',
    explain:
      'The code is a well-formed ISO 3166-1 alpha-2 code but not one of the 27 EU member states. `allowed` lists them.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    explain:
      'No operation or page exists at this path. The API offers exactly five operations under /v1.',
  },
  tier_required: {
    status: 403,
    title: 'Not offered to this tier',
    explain:
      'Signed download URLs (`delivery=signed_url`) are offered to Enterprise keys only. Ask the same operation without `delivery` for the body itself.',
  },
  signed_url_invalid: {
    status: 403,
    title: 'Invalid signed URL',
    explain:
      'The edge refused a download URL the service did not sign as given (a field altered, added or missing). Ask the operation with `delivery=signed_url` for a new one.',
  },
  signed_url_expired: {
    status: 410,
    title: 'Signed URL expired',
    explain:
      'A signed download URL is valid for a short time from its issue (`expires_at`), and only while its release is kept. Ask the operation with `delivery=signed_url` for a new one.',
  },
  not_acceptable: {
    status: 406,
    title: 'Not acceptable',
    explain:
      'The `Accept` header names no media type the operation answers with. `allowed` lists those it does: `application/json` for every operation, and `text/csv` and `application/x-ndjson` for the three datasets. Send one of them, `*/*`, or no `Accept`.',
  },
  ambiguous_identifier: {
    status: 409,
    title: 'Identifier maps to several assets',
    explain:
      'The ISIN, contract or DTI is carried by more than one asset (a fund share class on several ledgers, a shared contract). `candidates` lists their TFINs; look one up by `tfin`. 409 rather than 300: the answer carries no preferred choice and clients handle it as an error.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    explain:
      'The API is read-only: use GET (or HEAD, OPTIONS). The `Allow` header lists the methods.',
    headers: ['Allow'],
  },
  uri_too_long: {
    status: 414,
    title: 'URI too long',
    explain: 'The request target exceeds the limit of the server.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request header fields too large',
    explain: 'The request headers exceed the limit of the server.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    explain:
      'The key (or, for `DEMO_KEY`, the client address) used its quota for the window. `Retry-After` says when to retry; `RateLimit` and `RateLimit-Policy` describe the quota.',
    headers: ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
  },
  too_many_failed_attempts: {
    status: 429,
    title: 'Too many failed authentication attempts',
    explain:
      'This client address sent too many invalid keys, or too many requests refused without a working key (no key, unknown paths). `Retry-After` says when to retry.',
    headers: ['Retry-After'],
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    explain:
      'The service failed to answer. The request id in `instance` identifies it in our logs.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    explain: 'The service is shutting down or not ready; retry after the time in `Retry-After`.',
    headers: ['Retry-After'],
  },
} as const satisfies Record<
  string,
  {
    status: number;
    title: string;
    explain: string;
    /** The headers this problem's answers carry (named on the errors page). */
    headers?: readonly string[];
  }
>;

export type ProblemCode = keyof typeof PROBLEMS;

/** The response headers documented for a problem code. */
export function problemHeaders(code: ProblemCode): readonly string[] {
  const p: { status: number; headers?: readonly string[] } = PROBLEMS[code];
  return p.headers ?? [];
}

const REALM = 'Bearer realm="Tokenized Asset Intelligence API"';

/**
 * The refusals the service writes itself (the parameter readers and lookups build theirs from
 * the data): for each, its problem code, the detail as a template (`{name}` filled per request)
 * with the values the errors page shows, and the headers it always carries.
 */
export const REFUSALS = {
  key_in_query: {
    code: 'api_key_in_query',
    detail:
      'Send the key in the X-API-Key header or as Authorization: Bearer, never in the URL (found "{found}"). Revoke a key that was sent in a URL.',
    example: { found: 'api_key' },
  },
  key_in_target: {
    code: 'api_key_in_query',
    detail:
      'Send the key in the X-API-Key header or as Authorization: Bearer, never in the URL (the {where} holds an API key; it is not repeated here or logged). Revoke a key that was sent in a URL.',
    example: { where: 'path' },
  },
  conflicting_credentials: {
    code: 'conflicting_credentials',
    detail:
      'X-API-Key and Authorization: Bearer carry different keys; send one key (or the same key in both).',
  },
  repeated_api_key: {
    code: 'conflicting_credentials',
    detail: 'X-API-Key was sent more than once; send it once, with one key.',
  },
  missing_api_key: {
    code: 'missing_api_key',
    detail:
      'Send your key in the X-API-Key header (or Authorization: Bearer). Use DEMO_KEY to try the API.',
    headers: { 'WWW-Authenticate': REALM },
  },
  invalid_api_key: {
    code: 'invalid_api_key',
    detail: 'The API key is not valid.',
    headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
  },
  demo_key_disabled: {
    code: 'demo_key_disabled',
    detail: 'DEMO_KEY is switched off on this deployment; use a subscription key.',
  },
  key_unverifiable: {
    code: 'service_unavailable',
    detail: 'The key could not be verified right now; retry shortly.',
    headers: { 'Retry-After': '5' },
  },
  failed_attempts: {
    code: 'too_many_failed_attempts',
    detail: 'Too many invalid keys from this address; retry in {seconds} s.',
    example: { seconds: 240 },
  },
  refusals_from_address: {
    code: 'too_many_failed_attempts',
    detail:
      'Too many requests from this address were refused (no key, an invalid key or unknown paths); retry in {seconds} s.',
    example: { seconds: 42 },
  },
  quota_used_up: {
    code: 'rate_limited',
    detail: 'The {policy} quota is used up; retry in {seconds} s.',
    example: { policy: 'institutional', seconds: 42 },
  },
  signed_url_tier: {
    code: 'tier_required',
    detail:
      'Signed download URLs are offered to Enterprise keys; this key is of the {tier} tier. Ask without delivery= for the body itself.',
    example: { tier: 'institutional' },
  },
  signed_urls_off: {
    code: 'not_found',
    detail:
      'This deployment offers no signed download URLs (it runs without its edge). Ask without delivery= for the body itself.',
  },
  // Written by the edge itself (deploy/nginx/tai-edge.conf.template, location /downloads/), in
  // these words (test/integration/edge-signed-urls.test.ts compares them).
  signed_url_invalid: {
    code: 'signed_url_invalid',
    detail:
      'This download URL is not one the service signed (altered or incomplete); ask the API for a new one.',
  },
  signed_url_expired: {
    code: 'signed_url_expired',
    detail: 'This download URL has expired; ask the API for a new one.',
  },
  no_operation: {
    code: 'not_found',
    detail: 'No operation at {path}. See /docs for the five operations under /v1.',
    example: { path: '/v1/registry/funds' },
  },
  no_operation_astro: { code: 'not_found', detail: 'No operation at {path}.' },
  no_page: { code: 'not_found', detail: 'Nothing at {path}.', example: { path: '/pricing' } },
  method: {
    code: 'method_not_allowed',
    detail: '{method} is not allowed on {path}; the API is read-only.',
    example: { method: 'POST', path: '/openapi.json' },
    headers: { Allow: 'GET, HEAD, OPTIONS' },
  },
  target_too_long: {
    code: 'uri_too_long',
    detail: 'The request target is longer than {limit} bytes.',
    example: { limit: 4096 },
  },
  target_refused: {
    code: 'malformed_request',
    detail: 'The request target was refused: {reason}.',
    example: { reason: 'the path has an encoded slash or a backslash' },
  },
  body_too_large: {
    code: 'malformed_request',
    detail: 'The request has a body of more than {limit} bytes; no operation takes a body.',
  },
  not_a_proxy: {
    code: 'method_not_allowed',
    detail: 'CONNECT is not allowed; this is not a proxy.',
    headers: { Allow: 'GET, HEAD, OPTIONS' },
  },
  request_timeout: { code: 'malformed_request', detail: 'The request was not received in time.' },
  not_http: {
    code: 'malformed_request',
    detail: 'The request could not be parsed as HTTP/1.1.',
  },
  headers_too_large: {
    code: 'headers_too_large',
    detail: 'The request headers exceed {limit} bytes.',
    example: { limit: 16384 },
  },
  internal: { code: 'internal_error', detail: 'The service failed to answer this request.' },
  too_many_connections: {
    code: 'service_unavailable',
    detail: 'Too many connections; retry shortly.',
    headers: { 'Retry-After': '1' },
  },
} as const satisfies Record<
  string,
  {
    code: ProblemCode;
    detail: string;
    example?: Record<string, string | number>;
    headers?: Record<string, string>;
  }
>;

export type RefusalName = keyof typeof REFUSALS;

/** The `{name}`s of a detail template. */
type Holes<S extends string> = S extends `${string}{${infer K}}${infer R}` ? K | Holes<R> : never;

/** The values a refusal's detail needs. */
export type RefusalVars<N extends RefusalName> = Record<
  Holes<(typeof REFUSALS)[N]['detail']>,
  string | number
>;

/** A refusal's detail with its values filled in. */
export function refusalDetail<N extends RefusalName>(name: N, vars: RefusalVars<N>): string {
  const values = vars as Record<string, string | number>;
  return REFUSALS[name].detail.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));
}

const fixedHeaders = new Map<RefusalName, readonly string[]>();

/** A refusal's fixed headers as name/value pairs (empty when it has none), made once per refusal. */
export function refusalHeaders(name: RefusalName): readonly string[] {
  let pairs = fixedHeaders.get(name);
  if (pairs === undefined) {
    const r: { code: ProblemCode; headers?: Record<string, string> } = REFUSALS[name];
    pairs = Object.freeze(r.headers ? Object.entries(r.headers).flat() : []);
    fixedHeaders.set(name, pairs);
  }
  return pairs;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  [extension: string]: unknown;
}

export function problemBody(
  code: ProblemCode,
  detail: string,
  instance: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  const p = PROBLEMS[code];
  return {
    type: `/docs/errors#${code}`,
    title: p.title,
    status: p.status,
    detail,
    instance,
    code,
    ...extensions,
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
