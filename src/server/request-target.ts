// Path normalisation: decode the request target once, safely, before anything routes on it.
// "//v1/x" and "/v1/x/" route as "/v1/x"; dot segments, encoded slashes or backslashes,
// NUL and control characters are refused, so no later prefix check can be bypassed.

export type Target =
  { ok: true; path: string; search: string; rawQuery: string } | { ok: false; reason: string };

const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseTarget(rawUrl: string): Target {
  if (!rawUrl.startsWith('/')) {
    // Absolute-form ("http://host/path") and asterisk-form targets are not ours to serve.
    return { ok: false, reason: 'the request target must be a path starting with "/"' };
  }
  const q = rawUrl.indexOf('?');
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
  if (rawQuery.includes('#'))
    return { ok: false, reason: 'the request target must not contain a fragment' };
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, reason: 'the path has invalid percent-encoding' };
    }
    if (segment === '.' || segment === '..')
      return { ok: false, reason: 'the path has dot segments' };
    if (segment.includes('/') || segment.includes('\\'))
      return { ok: false, reason: 'the path has an encoded slash or a backslash' };
    if (CONTROL.test(segment)) return { ok: false, reason: 'the path has control characters' };
    if (segment.includes('%')) {
      // Double encoding ("%252e") is a classic filter bypass; no route of ours contains "%".
      return { ok: false, reason: 'the path is percent-encoded twice' };
    }
    segments.push(segment);
  }
  return {
    ok: true,
    path: `/${segments.join('/')}`,
    search: rawQuery ? `?${rawQuery}` : '',
    rawQuery,
  };
}
