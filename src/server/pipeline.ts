// The request pipeline (see ARCHITECTURE.md): request id → target normalisation → operational
// endpoints → route lookup → CORS and security headers → method check → key refusal in the query
// → failed-auth block → API key → rate limit → answer (fast path from memory, computed view, or
// Astro) → latency, usage and metrics recorded → access log.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { AccessLog } from './log.ts';
import proxyAddr from 'proxy-addr';
import type { Principal } from '../access/authenticator.ts';
import { quotaBackendHealth } from '../access/quotas.ts';
import { problemCodeOf, recordRequest } from './operator-metrics.ts';
import { KEY_QUERY_PARAMS, presentedKey } from '../access/keys.ts';
import { readParams } from '../api/params.ts';
import { identifierIndex, tfinIndex } from '../api/registry-lookup.ts';
import { answerLookup } from '../api/lookup-answer.ts';
import { openReleases, unknownVersionProblem } from '../api/releases.ts';
import { MEDIA_TYPES, type BulkFormat, type Format } from '../api/bulk.ts';
import { bulkLines } from './bulk-lines.ts';
import { prepareSortOrders } from '../api/registry-list.ts';
import type { Config } from '../config.ts';
import { datasetViews, readView, type DatasetView } from './dataset-views.ts';
import type { Prebuilt } from './prebuilt.ts';
import { artifactIntegrity } from '../dataset/integrity.ts';
import { precompute, type Precomputed } from './precomputed.ts';
import { parseTarget } from './request-target.ts';
import { announcesBody, checkRequest, versionProblem } from './http-conformance.ts';
import { PROBLEM_CONTENT_TYPE } from '../domain/errors.ts';
import { instanceFor } from '../http/problem-response.ts';
import {
  negotiateFormat,
  prepareProblem,
  sendParamProblem,
  sendPreparedProblem,
  sendUncached,
  type PreparedProblem,
  sendPrecomputed,
  sendProblem,
  type ProblemContext,
} from './respond.ts';
import { ALLOWED_METHODS, isOperation } from './routes.ts';
import type { Runtime } from './runtime.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { addressKey, isLoopback } from '../lib/client-address.ts';
import type { StaticFile } from './static-files.ts';

export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals: App.Locals,
) => Promise<void>;

export interface PipelineDeps {
  config: Config;
  log: Logger;
  /** The access log: one line per request (see log.ts). */
  access: AccessLog;
  prebuilt: Prebuilt;
  staticFiles: Map<string, StaticFile>;
  astro: AstroHandler;
  runtime: Runtime;
  /** True once shutdown began: answer, but close keep-alive connections. */
  draining: () => boolean;
}

// Keyed data: browsers may cache it; shared caches must not (they would skip our key check).
const DATA_CACHE = 'private, max-age=60, stale-while-revalidate=300';
/** An answer for a named dataset_version never changes. */
const IMMUTABLE_CACHE = 'private, max-age=31536000, immutable';
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const CORS_EXPOSE =
  'ETag, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, X-Request-Id';
const CORS_ALLOW_HEADERS = 'X-API-Key, Authorization, If-None-Match';
const REALM = 'Bearer realm="Tokenized Asset Intelligence API"';
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Computed (filtered) views kept in memory, least recently used first out. */
const VIEW_CACHE_ENTRIES = 256;
/** Computed views longer than this (characters) are not cached (large CSV / NDJSON selections). */
const MAX_CACHED_VIEW_CHARS = 2_000_000;
/** Request targets already resolved to their fixed answer (see `hotTargets`). */
const HOT_TARGET_ENTRIES = 4096;

/**
 * A request target whose answer cannot change while the process runs: a prebuilt body, or (for
 * lookups) the problem it always gets. What routing, validation and lookup decided, kept.
 */
type HotTarget = { path: string } & (
  | {
      body: Precomputed;
      problem?: undefined;
      /** A dataset view without a query: its CSV and NDJSON bodies, chosen by Accept. */
      alternates?: Record<BulkFormat, Precomputed>;
      vary?: string;
      /** Default DATA_CACHE; a named dataset_version is immutable. */
      cacheControl?: string;
    }
  | { body?: undefined; problem: PreparedProblem }
);

/** The dataset operations' answers depend on Accept (CSV, NDJSON) as well as Accept-Encoding. */
const VARY_ACCEPT = 'Accept, Accept-Encoding';

interface RequestState {
  principal: Principal | null;
}

function compileTrust(setting: Config['TRUST_PROXY']) {
  if (setting === false) return null;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_addr: string, i: number) => i < setting;
  return proxyAddr.compile(setting);
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Bytes of an unexpected request body read (and discarded) before answering; more is refused. */
const MAX_IGNORED_BODY = 65_536;
/** Requests whose body went past MAX_IGNORED_BODY: answered 400, connection closed. */
const oversized = new WeakSet<IncomingMessage>();

function receiveBodyFirst(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_IGNORED_BODY) return;
    req.off('data', onData);
    req.off('end', onEnd);
    oversized.add(req);
    handle(req, res);
  };
  const onEnd = () => handle(req, res);
  req.on('data', onData);
  req.once('end', onEnd);
}

export function createPipeline(deps: PipelineDeps) {
  const { config, log, prebuilt, staticFiles, astro, runtime } = deps;
  const trust = compileTrust(config.TRUST_PROXY);
  const registryExports = prebuilt.bulk.get('/v1/registry/assets');
  const views = datasetViews(
    prebuilt.core,
    prebuilt.registry,
    registryExports && {
      csv: bulkLines(registryExports.csv, 'csv'),
      ndjson: bulkLines(registryExports.ndjson, 'ndjson'),
    },
  );
  // Built at start, so no request pays for them: every sort order, and the suggestion index.
  prepareSortOrders(prebuilt.registry.core.registry.rows);
  tfinIndex(prebuilt.registry);
  identifierIndex(prebuilt.registry.core.registry.rows);
  const releases = openReleases(path.resolve(config.TAI_DATASET), prebuilt.core.dataset_version);
  /** Views of older releases (dataset_version=), made on first use; one release at a time. */
  const releaseViews = new BoundedMap<string, Map<string, DatasetView>>(1);
  const fastPath = config.FAST_PATH === 'on';
  let statusBody: { json: string; body: Precomputed } | null = null;
  const viewCache = new BoundedMap<string, Precomputed>(VIEW_CACHE_ENTRIES);

  // The client's address: the socket's, or with TRUST_PROXY the one X-Forwarded-For gives, but
  // only when it is an IP address (a header value is anyone's text: "not-an-ip-1" rotated per
  // request would be a fresh quota each time, and 8 KB of it would go into every log line).
  const clientIp = (req: IncomingMessage): string => {
    const socketIp = req.socket.remoteAddress ?? 'unknown';
    if (!trust) return socketIp;
    const derived = proxyAddr(req, trust);
    return derived.length <= 64 && isIP(derived) ? derived : socketIp;
  };

  // Request targets whose answer is fixed (the unfiltered datasets, lookup hits, the problem a
  // lookup always gets): the dataset cannot change while the process runs, so parsing, validation
  // and lookup are done once per distinct target. Only targets that were routed and passed the
  // key-in-query check are kept; bounded, oldest out. Key, quota and metering run every time.
  const hotTargets = new BoundedMap<string, HotTarget>(HOT_TARGET_ENTRIES);
  const remember = (rawUrl: string, target: HotTarget) => hotTargets.set(rawUrl, target);

  const cors = (ctx: ProblemContext) =>
    ctx.headers.push(
      'Access-Control-Allow-Origin',
      '*',
      'Access-Control-Expose-Headers',
      CORS_EXPOSE,
    );
  const apiHeaders = (ctx: ProblemContext) => {
    cors(ctx);
    ctx.headers.push('Content-Security-Policy', API_CSP);
  };

  const json = (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    status: number,
    body: unknown,
  ) => sendUncached(req, res, ctx, status, 'application/json', JSON.stringify(body));

  /**
   * Readiness input for the dataset: loaded and verified at start (startApp refuses to start
   * otherwise), its files' sizes re-checked while running (integrity.ts). Which files are
   * damaged goes to the start-up log, not to the public probe.
   */
  const datasetIntegrity = () => {
    const report = artifactIntegrity();
    return {
      ok: report.ok,
      version: prebuilt.core.dataset_version,
      ...(report.ok ? {} : { detail: `${report.problems.length} built file(s) damaged` }),
    };
  };

  async function operational(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    path: string,
    ip: string,
  ) {
    // Liveness and readiness as defined in telemetry/health.ts (README "Health endpoints"): no
    // database query per probe, so a probe never waits on a hung database.
    if (path === '/healthz') return json(req, res, ctx, 200, runtime.health.liveness());
    if (path === '/readyz') {
      const r = runtime.health.readiness(datasetIntegrity(), deps.draining());
      return json(req, res, ctx, r.http, { ...r.body, quotas: quotaBackendHealth() });
    }
    // /metrics: with METRICS_TOKEN, a bearer token; without, loopback clients only. Behind a
    // trusted same-host proxy every socket is loopback, so the client is the address the proxy
    // forwarded (`ip`): both must be loopback.
    const auth = req.headers.authorization ?? '';
    const allowed = config.METRICS_TOKEN
      ? safeEqual(auth, `Bearer ${config.METRICS_TOKEN}`)
      : isLoopback(req.socket.remoteAddress) && isLoopback(ip);
    if (!allowed) return sendProblem(req, res, ctx, 'not_found', 'Nothing at /metrics.');
    const text = await runtime.metrics.registry.metrics();
    sendUncached(req, res, ctx, 200, runtime.metrics.registry.contentType, text);
  }

  /** A prerendered dataset: prebuilt bytes without a query, a computed view with one. */
  function datasetView(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    path: string,
    search: string,
  ): boolean {
    const view = views.get(path);
    const prebuiltBody = prebuilt.views.get(path);
    const bulk = prebuilt.bulk.get(path);
    if (!view || !prebuiltBody || !bulk) return false;
    const sendView = (body: Precomputed, cacheControl = DATA_CACHE) =>
      sendPrecomputed(req, res, ctx, body, { cacheControl, vary: VARY_ACCEPT });
    if (search === '' || search === '?') {
      remember(req.url!, { path, body: prebuiltBody, alternates: bulk, vary: VARY_ACCEPT });
      const format = negotiateFormat(req.headers.accept);
      sendView(format === 'json' ? prebuiltBody : bulk[format]);
      return true;
    }
    // Computed views are cached by their normalised query (bounded LRU): built and compressed once.
    const query = readView(view, search);
    if (!query.ok) {
      sendParamProblem(req, res, ctx, query.problem);
      return true;
    }
    // dataset_version: the current release (immutable caching) or a kept older one.
    const version = query.values['dataset_version'];
    let active = view;
    if (version && version !== prebuilt.core.dataset_version) {
      const release = releases.get(version);
      if (!release) {
        sendParamProblem(req, res, ctx, unknownVersionProblem(version, releases));
        return true;
      }
      let old = releaseViews.get(version);
      if (!old) releaseViews.set(version, (old = datasetViews(release.core, release.source)));
      active = old.get(path)!;
    }
    const cacheControl = version ? IMMUTABLE_CACHE : DATA_CACHE;
    const given = query.values['format'] as Format | undefined;
    const format = given ?? negotiateFormat(req.headers.accept);
    // `format=csv` alone is the prebuilt bulk body (the URL names it: remembered like the JSON one).
    if (format !== 'json' && query.key === `format=${format}`) {
      remember(req.url!, { path, body: bulk[format], vary: VARY_ACCEPT });
      sendView(bulk[format]);
      return true;
    }
    const cacheKey = `${path}?${query.key}#${format}`;
    let body = viewCache.get(cacheKey);
    if (body) viewCache.delete(cacheKey);
    else {
      const result = active.compute(query.values, format);
      if (!result.ok) {
        sendParamProblem(req, res, ctx, result.problem);
        return true;
      }
      body = precompute(result.text, MEDIA_TYPES[format], { effort: 'fast', eager: false });
      // A large bulk selection is sent, not kept: the cache holds at most 256 bodies.
      if (result.text.length > MAX_CACHED_VIEW_CHARS) {
        sendView(body, cacheControl);
        return true;
      }
    }
    viewCache.set(cacheKey, body);
    sendView(body, cacheControl);
    return true;
  }

  /**
   * Lookups from memory: hits from the prebuilt bytes, misses and bad input as problems built by
   * the same functions as Astro's endpoint (which answers everything when FAST_PATH=off).
   */
  function registryAsset(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    query: URLSearchParams,
  ): void {
    // A miss asks the suggestion index (bounded work); the answer is then remembered with its target.
    const lookup = answerLookup(query, prebuilt.registry, releases);
    const path = '/v1/registry/asset';
    if (!lookup.ok) {
      const problem = prepareProblem(lookup.problem);
      remember(req.url!, { path, problem });
      return sendPreparedProblem(req, res, ctx, problem);
    }
    // A TFIN without include= is the packed body; another selector, include=history or an older
    // release is made once per target (the same function as Astro's endpoint) and remembered.
    const body =
      lookup.body === undefined
        ? prebuilt.profile(lookup.tfin)!
        : precompute(lookup.body, 'application/json', { effort: 'fast', eager: false });
    const cacheControl = lookup.immutable ? IMMUTABLE_CACHE : DATA_CACHE;
    remember(req.url!, { path, body, cacheControl });
    sendPrecomputed(req, res, ctx, body, { cacheControl });
  }

  async function systemStatus(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    search: string,
  ) {
    if (search !== '' && search !== '?') {
      const params = readParams(new URLSearchParams(search), []);
      if (!params.ok) return sendParamProblem(req, res, ctx, params.problem);
    }
    const text = await runtime.status.json();
    // One precomputed body (hash, lazy compression) per snapshot, not per request.
    if (statusBody?.json !== text)
      statusBody = {
        json: text,
        body: precompute(text, 'application/json', { effort: 'fast', eager: false }),
      };
    sendPrecomputed(req, res, ctx, statusBody.body, { cacheControl: 'private, no-cache' });
  }

  function toAstro(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    path: string,
    search: string,
  ) {
    // Astro builds its URL from Host: give it a fixed one so a spoofed Host cannot leak into anything it renders.
    req.headers.host = 'localhost';
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-proto'];
    req.url = path + search;
    for (let i = 0; i < ctx.headers.length; i += 2)
      res.setHeader(ctx.headers[i]!, ctx.headers[i + 1]!);
    return astro(
      req,
      res,
      () => sendProblem(req, res, ctx, 'not_found', `No operation at ${path}.`),
      {
        registry: prebuilt.registry,
        status: runtime.status,
        requestId: ctx.requestId,
      },
    );
  }

  /** Key, limits, then the answer; the principal goes into `state` for metering and the log. */
  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: ProblemContext,
    ip: string,
    path: string,
    search: string,
    state: RequestState,
    hot: HotTarget | undefined,
  ): Promise<void> {
    // A hot target passed the query checks when it was first resolved.
    const query = hot ? null : new URLSearchParams(search);
    const leaked = query && KEY_QUERY_PARAMS.find((p) => query.has(p));
    if (leaked) {
      sendProblem(
        req,
        res,
        ctx,
        'api_key_in_query',
        `Send the key in the X-API-Key header or as Authorization: Bearer, never in the URL (found "${leaked}"). Revoke a key that was sent in a URL.`,
      );
      return;
    }
    const presented = presentedKey(req.headers);
    const quick = runtime.auth.check(presented);
    // A key already known good (or DEMO_KEY) skips the failed-attempts check: the block exists to
    // stop an address from trying new keys, and this one is not new. "Known" must not depend on
    // the key cache answering synchronously (it expires every KEY_CACHE_MS).
    const known = (!(quick instanceof Promise) && quick.ok) || runtime.auth.knownGood(presented);
    // Limits count an address's /64 for IPv6 (one client holds a whole /64).
    const limitKey = addressKey(ip) ?? ip;
    // With REDIS_URL the block and the quota are counted in Redis (a promise); in memory, at once.
    const blocking = known ? null : runtime.failedAuth.blocked(limitKey);
    const blockedFor = blocking instanceof Promise ? await blocking : blocking;
    if (blockedFor !== null) {
      sendProblem(
        req,
        res,
        ctx,
        'too_many_failed_attempts',
        `Too many invalid keys from this address; retry in ${blockedFor} s.`,
        {},
        { 'Retry-After': String(blockedFor) },
      );
      return;
    }
    const auth = quick instanceof Promise ? await quick : quick;
    if (!auth.ok) {
      switch (auth.failure) {
        case 'missing_api_key':
          sendProblem(
            req,
            res,
            ctx,
            'missing_api_key',
            'Send your key in the X-API-Key header (or Authorization: Bearer). Use DEMO_KEY to try the API.',
            {},
            { 'WWW-Authenticate': REALM },
          );
          break;
        case 'invalid_api_key':
          runtime.failedAuth.fail(limitKey);
          sendProblem(
            req,
            res,
            ctx,
            'invalid_api_key',
            'The API key is not valid.',
            {},
            { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
          );
          break;
        case 'demo_key_disabled':
          sendProblem(
            req,
            res,
            ctx,
            'demo_key_disabled',
            'DEMO_KEY is switched off on this deployment; use a subscription key.',
          );
          break;
        case 'service_unavailable':
          sendProblem(
            req,
            res,
            ctx,
            'service_unavailable',
            'The key could not be verified right now; retry shortly.',
            {},
            { 'Retry-After': '5' },
          );
          break;
      }
      return;
    }
    state.principal = auth.principal;
    const limiting = runtime.limits.consume(auth.principal, limitKey);
    const limit = limiting instanceof Promise ? await limiting : limiting;
    const lh = limit.headers;
    ctx.headers.push('RateLimit-Policy', lh['RateLimit-Policy'], 'RateLimit', lh.RateLimit);
    if (lh['Retry-After']) ctx.headers.push('Retry-After', lh['Retry-After']);
    if (!limit.allowed) {
      sendProblem(
        req,
        res,
        ctx,
        'rate_limited',
        `The ${limit.policy} quota is used up; retry in ${limit.resetSeconds} s.`,
      );
      return;
    }
    if (hot?.body) {
      // An unfiltered dataset view: JSON, or the CSV / NDJSON body Accept asks for.
      const format = hot.alternates ? negotiateFormat(req.headers.accept) : 'json';
      const body = format === 'json' ? hot.body : hot.alternates![format];
      const vary = hot.vary;
      return sendPrecomputed(req, res, ctx, body, {
        cacheControl: hot.cacheControl ?? DATA_CACHE,
        ...(vary ? { vary } : {}),
      });
    }
    if (hot?.problem) return sendPreparedProblem(req, res, ctx, hot.problem);
    if (path === '/v1/system/status' && fastPath) return systemStatus(req, res, ctx, search);
    if (datasetView(req, res, ctx, path, search)) return;
    if (path === '/v1/registry/asset' && fastPath)
      return registryAsset(req, res, ctx, query ?? new URLSearchParams(search));
    await toAstro(req, res, ctx, path, search);
  }

  return function handle(req: IncomingMessage, res: ServerResponse): void {
    // A request body (none of our methods takes one) is received before the answer, so that a
    // malformed one is answered 400 by Node's parser alone, never after our own response.
    if (!req.complete && !oversized.has(req) && announcesBody(req))
      return receiveBodyFirst(req, res, handle);
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const ctx: ProblemContext = {
      requestId,
      headers: ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff'],
    };
    const ip = clientIp(req);
    if (deps.draining()) ctx.headers.push('Connection', 'close');
    let loggedPath = '(refused)';
    let operation: string | null = null;
    const state: RequestState = { principal: null };
    const fail = (err: unknown) => {
      log.error(
        { req_id: requestId, err: err instanceof Error ? err.message : String(err) },
        'request failed',
      );
      if (!res.headersSent)
        sendProblem(req, res, ctx, 'internal_error', 'The service failed to answer this request.');
      else res.destroy();
    };
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (operation) {
        const p = state.principal;
        runtime.recorder.record(
          operation,
          p ? (p.kind === 'demo' ? 'DEMO_KEY' : p.id) : null,
          ms,
          res.statusCode,
        );
        runtime.metrics.observe(operation, res.statusCode);
      }
      const code = problemCodeOf(res);
      recordRequest(operation, ms / 1000, res.statusCode, code);
      deps.access({
        reqId: requestId,
        method: req.method,
        path: loggedPath,
        status: res.statusCode,
        ms: Math.round(ms * 1000) / 1000,
        ip,
        keyPrefix:
          state.principal?.kind === 'key'
            ? state.principal.displayPrefix
            : state.principal
              ? 'DEMO_KEY'
              : undefined,
        aborted: !res.writableFinished,
        code,
      });
    });

    if (oversized.has(req)) {
      ctx.headers.push('Connection', 'close');
      res.once('finish', () => req.socket.destroySoon());
      return sendProblem(
        req,
        res,
        ctx,
        'malformed_request',
        `The request has a body of more than ${MAX_IGNORED_BODY} bytes; no operation takes a body.`,
      );
    }
    const conformance = checkRequest(req);
    if (!conformance.ok) {
      ctx.headers.push('Connection', 'close');
      if (conformance.status === 505)
        return sendUncached(
          req,
          res,
          ctx,
          505,
          PROBLEM_CONTENT_TYPE,
          versionProblem(conformance.detail, instanceFor(requestId)),
        );
      return sendProblem(req, res, ctx, 'malformed_request', conformance.detail);
    }
    if ('asterisk' in conformance) {
      // "OPTIONS *": the server's own capabilities.
      loggedPath = '*';
      res.writeHead(200, ctx.headers.concat('Allow', ALLOWED_METHODS, 'Content-Length', '0'));
      res.end();
      return;
    }
    // An absolute-form target is served as its path (the authority is ours, whatever it says).
    if (conformance.url !== req.url) req.url = conformance.url;
    const rawUrl = conformance.url;
    const method = req.method ?? 'GET';
    const hot = method === 'GET' || method === 'HEAD' ? hotTargets.get(rawUrl) : undefined;
    if (hot) {
      loggedPath = operation = hot.path;
      apiHeaders(ctx);
      api(req, res, ctx, ip, hot.path, '', state, hot).catch(fail);
      return;
    }
    if (Buffer.byteLength(rawUrl) > config.MAX_URL_BYTES) {
      return sendProblem(
        req,
        res,
        ctx,
        'uri_too_long',
        `The request target is longer than ${config.MAX_URL_BYTES} bytes.`,
      );
    }
    const target = parseTarget(rawUrl);
    if (!target.ok)
      return sendProblem(
        req,
        res,
        ctx,
        'malformed_request',
        `The request target was refused: ${target.reason}.`,
      );
    const { path, search } = target;
    loggedPath = path;
    const isApi = path.startsWith('/v1/') || path === '/v1';
    const staticFile = isApi ? undefined : staticFiles.get(path);
    const isOps = OPS_PATHS.has(path);
    const known = isApi ? isOperation(path) : staticFile !== undefined || isOps;

    if (isApi) {
      apiHeaders(ctx);
    } else if (staticFile?.html) {
      ctx.headers.push(
        'Content-Security-Policy',
        PAGE_CSP,
        'Referrer-Policy',
        'no-referrer',
        'X-Frame-Options',
        'DENY',
      );
    } else if (staticFile) {
      cors(ctx);
    }

    if (!known) {
      return sendProblem(
        req,
        res,
        ctx,
        'not_found',
        isApi
          ? `No operation at ${path}. See /docs for the five operations under /v1.`
          : `Nothing at ${path}.`,
      );
    }
    if (method === 'OPTIONS') {
      const head = ctx.headers;
      head.push('Allow', ALLOWED_METHODS);
      if (req.headers['origin'] && req.headers['access-control-request-method']) {
        head.push('Access-Control-Allow-Methods', ALLOWED_METHODS);
        head.push('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        head.push('Access-Control-Max-Age', '86400');
      }
      head.push('Content-Length', '0');
      res.writeHead(204, head);
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      return sendProblem(
        req,
        res,
        ctx,
        'method_not_allowed',
        `${method} is not allowed on ${path}; the API is read-only.`,
        { allowed: ['GET', 'HEAD', 'OPTIONS'] },
        { Allow: ALLOWED_METHODS },
      );
    }
    if (staticFile)
      return sendPrecomputed(req, res, ctx, staticFile.body, {
        cacheControl: staticFile.cacheControl,
      });
    if (isOps) {
      operational(req, res, ctx, path, ip).catch(fail);
      return;
    }
    operation = path;
    api(req, res, ctx, ip, path, search, state, undefined).catch(fail);
  };
}
