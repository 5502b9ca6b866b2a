// Route step: /v1 paths must be one of the operations (the operations table, src/api/operations.ts); the operational endpoints;
// any other path must be a public file of the built site. `found` refuses the rest with a 404
// problem, after the headers step (the 404 of an API path carries the API's headers).
import { OPERATIONS_TABLE, underApiRoot, type OperationsTable } from '../../api/operations.ts';
import type { StaticFile } from '../static-files.ts';
import type { RequestContext } from './context.ts';
import { refuse } from './refuse.ts';

export const JWKS_PATH = '/.well-known/jwks.json';
export const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics', JWKS_PATH]);

export interface RouteDeps {
  staticFiles: Map<string, StaticFile>;
  /** The operations served (default: the operations table; a test passes its own). */
  operations?: OperationsTable;
}

export function route(ctx: RequestContext, deps: RouteDeps): void {
  const path = ctx.path;
  if (ctx.hot) {
    ctx.api = true;
    ctx.route = 'api';
  } else if (underApiRoot(path)) {
    ctx.api = true;
    if ((deps.operations ?? OPERATIONS_TABLE).at(path)) ctx.route = 'api';
  } else {
    ctx.staticFile = deps.staticFiles.get(path);
    if (ctx.staticFile) ctx.route = 'static';
    else if (OPS_PATHS.has(path)) ctx.route = 'ops';
  }
}

/** True when the request was answered (404: nothing at its path) here. */
export function found(ctx: RequestContext): boolean {
  if (ctx.route !== 'unknown') return false;
  return ctx.api
    ? refuse(ctx, 'no_operation', { path: ctx.path })
    : refuse(ctx, 'no_page', { path: ctx.path });
}
