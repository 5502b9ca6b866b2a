// Headers step: CORS (`*`, no credentials) on the API and on site files; CSP on the API; CSP,
// Referrer-Policy and X-Frame-Options on pages. Every /v1 answer names the release it is served
// under (Dataset-Version) and, with a signing key, is signed (src/representation/response-signer.ts).
import {
  DATASET_VERSION_HEADER,
  type ResponseSigner,
} from '../../representation/response-signer.ts';
import type { RequestContext } from './context.ts';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const CORS_EXPOSE =
  'ETag, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, X-Request-Id, Dataset-Version, Dataset-Generated-At, Dataset-Digest, Content-Digest, Signature, Signature-Input';
export const CORS_ALLOW_HEADERS = 'X-API-Key, Authorization, If-None-Match';

export interface HeadersDeps {
  /** The dataset version this deployment serves. */
  version: string;
  signer: ResponseSigner | null;
}

export function headers(ctx: RequestContext, deps: HeadersDeps): void {
  const h = ctx.headers;
  if (ctx.api) {
    h.push('Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', CORS_EXPOSE);
    h.push('Content-Security-Policy', API_CSP, DATASET_VERSION_HEADER, deps.version);
    if (deps.signer) ctx.signer = deps.signer;
  } else if (ctx.staticFile?.html) {
    h.push('Content-Security-Policy', PAGE_CSP, 'Referrer-Policy', 'no-referrer');
    h.push('X-Frame-Options', 'DENY');
  } else if (ctx.staticFile) {
    h.push('Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', CORS_EXPOSE);
  }
}
