// Method step: OPTIONS → 204 (a CORS preflight needs no key); anything but GET/HEAD → 405 with
// Allow.
import { ALLOWED_METHODS } from '../../api/operations.ts';
import type { RequestContext } from './context.ts';
import { CORS_ALLOW_HEADERS } from './headers.ts';
import { refuse } from './refuse.ts';
import { writeDecision } from '../../representation/respond.ts';

/** True when the request was answered here. */
export function method(ctx: RequestContext): boolean {
  const { req, res } = ctx;
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return false;
  if (ctx.method === 'OPTIONS') {
    const head = ctx.headers;
    head.push('Allow', ALLOWED_METHODS);
    if (req.headers['origin'] && req.headers['access-control-request-method']) {
      head.push('Access-Control-Allow-Methods', ALLOWED_METHODS);
      head.push('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      head.push('Access-Control-Max-Age', '86400');
    }
    head.push('Content-Length', '0');
    writeDecision(res, { status: 204, headers: head });
    return true;
  }
  return refuse(
    ctx,
    'method',
    { method: ctx.method, path: ctx.path },
    { allowed: ['GET', 'HEAD', 'OPTIONS'] },
  );
}
