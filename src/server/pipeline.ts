// The request pipeline (see ARCHITECTURE.md): request id → target normalisation → method check
// → CORS → route (fast path from memory, static files, or Astro) → access log.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { readParams } from '../dataset/params.ts';
import { LOOKUP_PARAMS } from '../dataset/registry-lookup.ts';
import { computeView, datasetViews } from './dataset-views.ts';
import type { Config } from './config.ts';
import type { Prebuilt } from './prebuilt.ts';
import { ALLOWED_METHODS, isOperation } from './routes.ts';
import { sendComputedJson, sendPrecomputed, sendProblem, type ProblemContext } from './respond.ts';
import { parseTarget } from './request-target.ts';
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
  prebuilt: Prebuilt;
  staticFiles: Map<string, StaticFile>;
  astro: AstroHandler;
  /** True once shutdown began: answer, but close keep-alive connections. */
  draining: () => boolean;
}

const DATA_CACHE = 'public, max-age=60, stale-while-revalidate=300';
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const CORS_EXPOSE =
  'ETag, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, X-Request-Id';
const CORS_ALLOW_HEADERS = 'X-API-Key, Authorization, If-None-Match, Content-Type';

function clientIp(req: IncomingMessage, trust: ReturnType<typeof compileTrust>): string {
  if (!trust) return req.socket.remoteAddress ?? 'unknown';
  return proxyAddr(req, trust);
}

function compileTrust(setting: Config['TRUST_PROXY']) {
  if (setting === false) return null;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_addr: string, i: number) => i < setting;
  return proxyAddr.compile(setting);
}

export function createPipeline(deps: PipelineDeps) {
  const { config, log, prebuilt, staticFiles, astro } = deps;
  const trust = compileTrust(config.TRUST_PROXY);
  const views = datasetViews(prebuilt.registry.dataset);
  const fastPath = config.FAST_PATH === 'on';

  function cors(res: ServerResponse) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE);
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
    if (!view || !prebuiltBody) return false;
    if (search === '' || search === '?') {
      sendPrecomputed(req, res, prebuiltBody, { cacheControl: DATA_CACHE });
      return true;
    }
    const result = computeView(view, search);
    if (!result.ok)
      sendProblem(
        req,
        res,
        ctx,
        result.problem.code,
        result.problem.detail,
        result.problem.extensions,
      );
    else sendComputedJson(req, res, result.json, { cacheControl: DATA_CACHE });
    return true;
  }

  /** Lookup hits from memory; anything else (errors, misses) goes to Astro's endpoint. */
  function registryAssetHit(req: IncomingMessage, res: ServerResponse, search: string): boolean {
    if (!fastPath) return false;
    const params = readParams(new URLSearchParams(search), LOOKUP_PARAMS);
    if (!params.ok || !params.values['tfin']) return false;
    const body = prebuilt.profiles.get(params.values['tfin']);
    if (!body) return false;
    sendPrecomputed(req, res, body, { cacheControl: DATA_CACHE });
    return true;
  }

  return function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const ctx: ProblemContext = { requestId };
    const ip = clientIp(req, trust);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (deps.draining()) res.setHeader('Connection', 'close');
    let loggedPath = '(refused)';
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          req_id: requestId,
          method: req.method,
          path: loggedPath,
          status: res.statusCode,
          ms: Math.round(ms * 1000) / 1000,
          ip,
          aborted: !res.writableFinished,
        },
        'request',
      );
    });

    const rawUrl = req.url ?? '/';
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
    const method = req.method ?? 'GET';
    const api = path.startsWith('/v1/') || path === '/v1';
    const staticFile = api ? undefined : staticFiles.get(path);
    const known = api ? isOperation(path) : staticFile !== undefined;

    if (api) {
      cors(res);
      res.setHeader('Content-Security-Policy', API_CSP);
    } else if (staticFile?.html) {
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('X-Frame-Options', 'DENY');
    } else if (staticFile) {
      cors(res);
    }

    if (!known) {
      return sendProblem(
        req,
        res,
        ctx,
        'not_found',
        api
          ? `No operation at ${path}. See /docs for the five operations under /v1.`
          : `Nothing at ${path}.`,
      );
    }
    if (method === 'OPTIONS') {
      res.setHeader('Allow', ALLOWED_METHODS);
      if (req.headers['origin'] && req.headers['access-control-request-method']) {
        res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        res.setHeader('Access-Control-Max-Age', '86400');
      }
      res.setHeader('Content-Length', '0');
      res.writeHead(204);
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
      return sendPrecomputed(req, res, staticFile.body, { cacheControl: staticFile.cacheControl });
    if (datasetView(req, res, ctx, path, search)) return;
    if (path === '/v1/registry/asset' && registryAssetHit(req, res, search)) return;

    // Astro builds its URL from Host: give it a fixed one so a spoofed Host cannot leak into anything it renders.
    req.headers.host = 'localhost';
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-proto'];
    req.url = path + search;
    astro(req, res, () => sendProblem(req, res, ctx, 'not_found', `No operation at ${path}.`), {
      registry: prebuilt.registry,
      requestId,
    }).catch((err: unknown) => {
      log.error({ req_id: requestId, err }, 'astro handler failed');
      if (!res.headersSent)
        sendProblem(req, res, ctx, 'internal_error', 'The service failed to answer this request.');
      else res.destroy();
    });
  };
}
