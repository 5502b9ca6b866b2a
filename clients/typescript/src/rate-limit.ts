// The RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers: Structured
// Field lists keyed by a quoted policy name) and Retry-After, read from a response.
import { parseList } from 'structured-headers';

export interface RateLimitState {
  /** The policy's name, e.g. "default". */
  policy: string;
  /** Requests left in the window (`r`). */
  remaining: number;
  /** Seconds until the window resets (`t`), when given. */
  resetSeconds?: number;
  /** The window's quota (`q` of RateLimit-Policy), when given. */
  quota?: number;
  /** The window's length in seconds (`w`), when given. */
  windowSeconds?: number;
}

const numberParam = (params: Map<string, unknown>, name: string) => {
  const v = params.get(name);
  return typeof v === 'number' ? v : undefined;
};

/** The first policy of RateLimit with its quota from RateLimit-Policy; null when absent or malformed. */
export function readRateLimit(headers: Headers): RateLimitState | null {
  const field = headers.get('ratelimit');
  if (!field) return null;
  try {
    const [item] = parseList(field);
    if (!item) return null;
    const [name, params] = item as [unknown, Map<string, unknown>];
    const remaining = numberParam(params, 'r');
    if (typeof name !== 'string' || remaining === undefined) return null;
    const state: RateLimitState = { policy: name, remaining };
    const reset = numberParam(params, 't');
    if (reset !== undefined) state.resetSeconds = reset;
    const policyField = headers.get('ratelimit-policy');
    if (policyField) {
      for (const [policyName, policyParams] of parseList(policyField) as [
        unknown,
        Map<string, unknown>,
      ][]) {
        if (policyName !== name) continue;
        const q = numberParam(policyParams, 'q');
        const w = numberParam(policyParams, 'w');
        if (q !== undefined) state.quota = q;
        if (w !== undefined) state.windowSeconds = w;
      }
    }
    return state;
  } catch {
    return null;
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP-date); null when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
