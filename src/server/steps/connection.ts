// Connection step: HTTP/1.1 framing (http-conformance.ts) and the connection's fate. Draining
// and refused framing close the connection; "OPTIONS *" is answered here.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { PROBLEM_CONTENT_TYPE } from '../../domain/errors.ts';
import { instanceFor } from '../../representation/representation.ts';
import type { Config } from '../../config.ts';
import { checkRequest, versionProblem } from '../http-conformance.ts';
import { sendProblem, sendUncached, writeDecision } from '../../representation/respond.ts';
import { ALLOWED_METHODS } from '../../api/operations.ts';
import { bodyTooLarge, MAX_IGNORED_BODY } from './body.ts';
import type { RequestContext } from './context.ts';
import { refuse } from './refuse.ts';

export interface ConnectionDeps {
  /** True once shutdown began: answer, but close keep-alive connections. */
  draining: () => boolean;
}

/**
 * The client's address: the socket's, or with TRUST_PROXY the one X-Forwarded-For gives, but
 * only when it is an IP address (a header value is anyone's text: "not-an-ip-1" rotated per
 * request would be a fresh quota each time, and 8 KB of it would go into every log line).
 */
export function clientIp(setting: Config['TRUST_PROXY']): (req: IncomingMessage) => string {
  const trust =
    setting === false
      ? null
      : setting === true
        ? () => true
        : typeof setting === 'number'
          ? (_addr: string, i: number) => i < setting
          : proxyAddr.compile(setting);
  return (req) => {
    const socketIp = req.socket.remoteAddress ?? 'unknown';
    if (!trust) return socketIp;
    const derived = proxyAddr(req, trust);
    return derived.length <= 64 && isIP(derived) ? derived : socketIp;
  };
}

/** `Connection: close` on the answer (Node sees it, so the answer takes the ordinary path). */
function closeAfter(ctx: RequestContext): void {
  ctx.headers.push('Connection', 'close');
  ctx.ordinary = true;
}

/** True when the request was answered here. */
export function connection(ctx: RequestContext, deps: ConnectionDeps): boolean {
  const { req, res } = ctx;
  if (deps.draining()) closeAfter(ctx);
  if (bodyTooLarge(req)) {
    closeAfter(ctx);
    res.once('finish', () => req.socket.destroySoon());
    return refuse(ctx, 'body_too_large', { limit: MAX_IGNORED_BODY });
  }
  const conformance = checkRequest(req);
  if (!conformance.ok) {
    closeAfter(ctx);
    if (conformance.status === 505) {
      const body = versionProblem(conformance.detail, instanceFor(ctx.requestId));
      sendUncached(req, res, ctx, 505, PROBLEM_CONTENT_TYPE, body);
    } else sendProblem(req, res, ctx, 'malformed_request', conformance.detail);
    return true;
  }
  if ('asterisk' in conformance) {
    // "OPTIONS *": the server's own capabilities.
    ctx.loggedPath = '*';
    const headers = ctx.headers.concat('Allow', ALLOWED_METHODS, 'Content-Length', '0');
    writeDecision(res, { status: 200, headers });
    return true;
  }
  // An absolute-form target is served as its path (the authority is ours, whatever it says).
  if (conformance.url !== req.url) req.url = conformance.url;
  ctx.url = conformance.url;
  return false;
}
