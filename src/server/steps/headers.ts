// Headers step: CORS (`*`, no credentials) on the API and on site files; CSP on the API; CSP,
// Referrer-Policy and X-Frame-Options on pages.
import type { RequestContext } from './context.ts';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const CORS_EXPOSE =
  'ETag, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, X-Request-Id';
export const CORS_ALLOW_HEADERS = 'X-API-Key, Authorization, If-None-Match';

export function headers(ctx: RequestContext): void {
  const h = ctx.headers;
  if (ctx.api) {
    h.push('Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', CORS_EXPOSE);
    h.push('Content-Security-Policy', API_CSP);
  } else if (ctx.staticFile?.html) {
    h.push('Content-Security-Policy', PAGE_CSP, 'Referrer-Policy', 'no-referrer');
    h.push('X-Frame-Options', 'DENY');
  } else if (ctx.staticFile) {
    h.push('Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', CORS_EXPOSE);
  }
}
