// One request's context: what every step reads and decides, in one object (no step takes more
// than the context and its own dependencies). `headers` are gathered here and written with the
// status line in one `writeHead` call (respond.ts).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../access/authenticator.ts';
import type { ProblemContext } from '../../representation/respond.ts';
import type { StaticFile } from '../static-files.ts';
import type { HotTarget } from './memo.ts';

/** What a path is: one of the API operations, an operational endpoint, a site file, or nothing. */
export type RouteKind = 'api' | 'ops' | 'static' | 'unknown';

export interface RequestContext extends ProblemContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** performance.now() (ms, monotonic) when the pipeline took the request. */
  started: number;
  /** The client's address (see steps/connection.ts `clientIp`). */
  ip: string;
  method: string;
  /** The request target as received (origin form). */
  url: string;
  /** The decoded, normalised path and the raw query ('' when none). */
  path: string;
  search: string;
  /** The path the access log names ('(refused)' until the target is read). */
  loggedPath: string;
  route: RouteKind;
  /** The path is under /v1 (an operation or not). */
  api: boolean;
  staticFile: StaticFile | undefined;
  /** The API operation (its path) for metering; null outside /v1 operations. */
  operation: string | null;
  /** Who called, once the key is accepted. */
  principal: Principal | null;
  /** The remembered answer of this target, when it has one (steps/memo.ts). */
  hot: HotTarget | undefined;
}

export function newContext(req: IncomingMessage, res: ServerResponse, ip: string): RequestContext {
  const requestId = randomUUID();
  return {
    req,
    res,
    requestId,
    headers: ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff'],
    started: performance.now(),
    ip,
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    path: '',
    search: '',
    loggedPath: '(refused)',
    route: 'unknown',
    api: false,
    staticFile: undefined,
    operation: null,
    principal: null,
    hot: undefined,
  };
}
