// HTTP/1.1 message rules (RFC 9112) that Node's parser leaves to the application, answered the
// way nginx answers them:
// - a request line of another major version (HTTP/2.0 in cleartext) → 505;
// - HTTP/1.1 without Host, with two Host fields, or with a Host that is not host[:port] → 400
//   (RFC 9112 §3.2: "MUST respond with a 400"; Node keeps only the first of duplicates);
// - absolute-form targets ("GET http://host/path") are accepted and served as their path
//   (§3.2.2: a server MUST accept them);
// - "OPTIONS *" asks about the server as a whole → 200 with Allow; "*" with any other method → 400.
// These run before routing, on every request: a pass over the raw header names and one regular
// expression on Host.
import type { IncomingMessage } from 'node:http';

export type Conformance =
  | { ok: true; url: string }
  | { ok: false; status: 400 | 505; detail: string }
  | { ok: true; asterisk: true };

// RFC 3986 host: an IP-literal in brackets or a reg-name (unreserved, pct-encoded, sub-delims), then an optional port.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

/** How many Host fields the request has, and the first one's value (no allocation). */
function hostFields(req: IncomingMessage): { count: number; value: string } {
  const raw = req.rawHeaders;
  let count = 0;
  let value = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && count++ === 0) value = raw[i + 1]!;
  }
  return { count, value };
}

export function checkRequest(req: IncomingMessage): Conformance {
  if (req.httpVersionMajor !== 1)
    return {
      ok: false,
      status: 505,
      detail: `HTTP/${req.httpVersion} is not supported on this connection; use HTTP/1.1.`,
    };
  const hosts = hostFields(req);
  if (hosts.count > 1)
    return { ok: false, status: 400, detail: 'The request has more than one Host header.' };
  if (hosts.count === 0) {
    if (req.httpVersionMinor >= 1)
      return { ok: false, status: 400, detail: 'An HTTP/1.1 request needs a Host header.' };
  } else if (!HOST.test(hosts.value)) {
    return { ok: false, status: 400, detail: 'The Host header is not a valid host[:port].' };
  }
  const url = req.url ?? '/';
  if (url.charCodeAt(0) === 47 /* "/" */) return { ok: true, url };
  if (url === '*') {
    if (req.method === 'OPTIONS') return { ok: true, asterisk: true };
    return { ok: false, status: 400, detail: 'The target "*" is only for OPTIONS.' };
  }
  const absolute = /^https?:\/\/([^/?#]*)([^#]*)$/i.exec(url);
  if (absolute) {
    const path = absolute[2]!;
    if (!HOST.test(absolute[1]!))
      return { ok: false, status: 400, detail: 'The request target has an invalid authority.' };
    return { ok: true, url: path === '' ? '/' : path.startsWith('?') ? `/${path}` : path };
  }
  return { ok: true, url }; // origin-form checks (parseTarget) refuse the rest with a precise reason
}

/**
 * A request body on GET/HEAD/OPTIONS is not ours to read, but it must be received before we
 * answer: otherwise a malformed chunked body would make Node's parser fail after our 200 and
 * send an unsolicited 400 on the same connection. True when such a body is announced.
 */
export function announcesBody(req: IncomingMessage): boolean {
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined) return true;
  const length = h['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * The 505 body. Protocol-level like Node's own 400/431 (no operation can answer it), so it is
 * not in the operations' catalogue: RFC 9457 members with `type` about:blank.
 */
export function versionProblem(detail: string, instance: string): string {
  return JSON.stringify({
    type: 'about:blank',
    title: 'HTTP Version Not Supported',
    status: 505,
    detail,
    instance,
    code: 'http_version_not_supported',
  });
}
