// The edge's authentication endpoint (deploy/nginx, docs/production.md "Running in production"): nginx serves
// the prebuilt dataset files itself (sendfile) and asks us first, with `auth_request`, on an
// internal path that exists only when EDGE_AUTH_TOKEN is set and the request carries it.
//
// The request is answered by the ordinary pipeline for the original target (key, failed-auth
// block, quota, coding negotiation, ETag and If-None-Match, metering and the access log: exactly
// as without the edge), and the answer is folded into the auth response:
//   204 → allowed: X-Tai-Status 200 (serve the file for X-Tai-Content-Encoding) or 304, the file
//         in X-Tai-File under X-Tai-Root: this instance's own release (its dist/client, links
//         resolved at start), so the edge never sends another release's bytes under our ETag;
//   401 → refused: X-Tai-Status is the real status, X-Tai-Problem the problem body.
// Every header nginx copies is prefixed X-Tai-, so nothing leaks into the client's answer by
// accident (auth_request would copy a bare WWW-Authenticate). No body is sent back.
//
// A decision the edge may reuse (docs/production.md "The edge's authorization cache"): an allowed answer for
// a subscription key, with quota left, says X-Accel-Expires (nginx caches it until then)
// and carries what nginx needs to reuse it safely without the key ever being stored: the key's
// MD5 (X-Tai-Key-Digest; nginx's secure_link checks the presented key against it, since the
// cache is keyed by the key's public prefix only) and the key's id, tier and public prefix
// (X-Tai-Charge), which the edge writes, with every request it answers from the cached
// decision, to the charge log named by X-Tai-Charge-Log (this instance's), so each one is
// charged here (edge-charges.ts). While this instance's charge reader is behind by more than
// MAX_CHARGE_LAG_MS, no decision is marked reusable: the quota overshoot stays bounded by
// EDGE_AUTH_CACHE_SECONDS plus that lag (docs/production.md "The edge's charges").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../dataset/integrity.ts';
import { PRERENDERED_VIEWS } from '../api/operations.ts';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../domain/errors.ts';
import { instanceFor } from '../representation/representation.ts';
import { foldDecision, writeDecision, type Fold } from '../representation/respond.ts';
import { noteProblem } from './operator-metrics.ts';
import { safeEqual } from '../lib/safe-equal.ts';
import { KEY_PATTERN, presentedKey } from '../access/keys.ts';
import { contextOf } from './steps/on-close.ts';
import { resolvedRelease } from '../dataset/release-dirs.ts';
import { edgeCounts } from './edge-counts.ts';
import type { ChargeReader } from './edge-charges.ts';

export const EDGE_AUTH_PATH = '/_tai/edge-auth';
export const EDGE_TOKEN_HEADER = 'x-tai-edge-token';
/** The original request target (path only: the edge sends query-less targets alone). */
export const EDGE_URI_HEADER = 'x-original-uri';
/** Past this lag of the charge reader, decisions are not reusable (edge-charges.ts). */
export const MAX_CHARGE_LAG_MS = 500;

/** What a reusable decision needs: how long, and the reader of this instance's charges. */
export interface Reuse {
  seconds: number;
  /** Started once the instance listens (its name is its port); undefined until then. */
  reader(): Pick<ChargeReader, 'name' | 'lagMs'> | undefined;
}
const NO_REUSE: Reuse = { seconds: 0, reader: () => undefined };

/**
 * Response headers handed to the edge, each as X-Tai-<name> (deploy/nginx copies exactly these):
 * every header of the service's answer but the framing ones nginx writes itself.
 */
export const FORWARDED = [
  'Content-Type',
  'Content-Encoding',
  'ETag',
  'Vary',
  'Cache-Control',
  'Link',
  'Deprecation',
  'Sunset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'X-Request-Id',
  'X-Content-Type-Options',
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
  'Content-Security-Policy',
  // The release served and the answer's signature (src/representation/response-signer.ts).
  'Dataset-Version',
  'Content-Digest',
  'Signature-Input',
  'Signature',
] as const;
/** Fields that speak of the body's exact bytes. */
const OF_THE_BYTES = new Set(['Content-Digest', 'Signature-Input', 'Signature']);

const EDGE_TARGETS = new Set<string>(PRERENDERED_VIEWS);

/**
 * The build's files by content tag (the ETag without its coding suffix), from the integrity
 * manifest: the SHA-256 of each identity file is the tag (precomputed.ts `contentTag`). The edge
 * is told which file to send by the tag of the answer, whatever representation was chosen.
 */
export function filesByTag(distDir: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(distDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const files = new Map<string, string>();
  for (const [key, entry] of Object.entries(manifest.files)) {
    if (!key.startsWith('client/v1/') || /\.(br|gz)$/.test(key)) continue;
    files.set(
      Buffer.from(entry.sha256, 'hex').toString('base64url').slice(0, 22),
      key.slice('client/'.length),
    );
  }
  return files;
}

/** The file (relative to dist/client) and the suffix of the coding for an ETag of ours. */
function fileFor(etag: string | undefined, files: Map<string, string>): string | undefined {
  const m = /^"([A-Za-z0-9_-]{22})(-gz|-br)?"$/.exec(etag ?? '');
  const file = m && files.get(m[1]!);
  if (!file) return undefined;
  return file + (m[2] === '-gz' ? '.gz' : m[2] === '-br' ? '.br' : '');
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Release {
  root: string;
  files: Map<string, string>;
}
/** How long a release's presence is trusted before it is checked again. */
const RELEASE_CHECK_MS = 1000;
/** Seconds a client is told to wait while no release is there to send from. */
const RELEASE_RETRY_SECONDS = '5';

/**
 * The release the edge sends files from: this instance's own, while its directory is there. Once
 * it is removed under the running instance, the release `link` points at now (the configured
 * DIST_DIR), for the files whose content tag it holds (the same bytes, whatever the release);
 * null while there is none, and again the moment one is back (no restart needed).
 */
function releaseTracker(distDir: string, link: string | undefined): () => Release | null {
  const load = (dir: string): Release | null => {
    try {
      return { root: path.join(dir, 'client'), files: filesByTag(dir) };
    } catch {
      return null;
    }
  };
  let dir = distDir;
  let current: Release | null = load(dir);
  let checkedAt = Date.now();
  return () => {
    const now = Date.now();
    if (now - checkedAt < RELEASE_CHECK_MS) return current;
    checkedAt = now;
    if (existsSync(path.join(dir, MANIFEST_FILE))) return (current ??= load(dir));
    current = null;
    try {
      dir = resolvedRelease(link ?? distDir);
      current = load(dir);
    } catch {
      // the link dangles too: nothing to send from until a release is back
    }
    return current;
  };
}

/** A decision's header fields by lower-cased name (the last value of a repeated one). */
function headerMap(fields: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) out.set(fields[i]!.toLowerCase(), fields[i + 1]!);
  return out;
}

/** JSON with every non-ASCII character escaped: the same document, safe in a header value. */
const asciiJson = (text: string) =>
  text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Wraps the pipeline: requests for EDGE_AUTH_PATH with the right token are answered as the edge
 * expects; everything else (a wrong or missing token included: a 404 like any unknown path) goes
 * to the pipeline untouched.
 */
export function withEdgeAuth(
  handle: Handler,
  token: string | undefined,
  distDir: string,
  /** How the edge may reuse an allowed decision for a key (never without a charge reader). */
  reuse: Reuse = NO_REUSE,
  /** DIST_DIR as configured (links unresolved): where a removed release's successor is found. */
  link?: string,
): Handler {
  if (!token) return handle;
  // The instance does not start without its release (verifyArtifacts): the first load holds.
  filesByTag(distDir);
  const release = releaseTracker(distDir, link);
  return (req, res) => {
    const url = req.url ?? '';
    if (
      (url !== EDGE_AUTH_PATH && !url.startsWith(`${EDGE_AUTH_PATH}?`)) ||
      !safeEqual(req.headers[EDGE_TOKEN_HEADER] as string | undefined, token)
    )
      return handle(req, res);
    const original = req.headers[EDGE_URI_HEADER];
    if (typeof original !== 'string' || !EDGE_TARGETS.has(original)) {
      writeDecision(res, { status: 404, headers: ['Content-Length', '0', ...NOT_STORED] });
      return;
    }
    delete req.headers[EDGE_TOKEN_HEADER];
    req.url = original;
    foldDecision(res, authAnswer(req, res, release(), reuse));
    handle(req, res);
  };
}

/**
 * The headers that let the edge reuse an allowed decision for `reuseSeconds`, or none: only a
 * subscription key (DEMO_KEY is counted per client address, which a cached decision cannot
 * follow) presented alone as the edge reads it, and only while the key has quota left after
 * this request (the last one allowed is never reused).
 */
function reuseHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  rateLimit: string | undefined,
  reuse: Reuse,
): string[] {
  const reader = reuse.reader();
  if (reuse.seconds <= 0 || !reader) return [];
  const principal = contextOf(res)?.principal;
  if (principal?.kind !== 'key') return [];
  const remaining = /;r=(\d+)/.exec(rateLimit ?? '');
  if (!remaining || Number(remaining[1]) === 0) return [];
  const key = presentedKey(req.headers);
  // The edge caches only a key it can name by its prefix (deploy/nginx, $tai_credential).
  if (key === null || !KEY_PATTERN.test(key)) return [];
  // Charges not read yet are quota not counted yet: decide every request until they are.
  if (reader.lagMs() > MAX_CHARGE_LAG_MS) {
    edgeCounts.heldBack++;
    return [];
  }
  const reuseSeconds = reuse.seconds;
  return [
    // Absolute (nginx keeps an entry through the second it expires in): reusable for at most
    // `reuseSeconds` from now (the edge reads the same clock: it is on this host).
    'X-Accel-Expires',
    `@${Math.floor(Date.now() / 1000) + reuseSeconds - 1}`,
    'X-Tai-Key-Digest',
    createHash('md5').update(key).digest('base64url'),
    'X-Tai-Charge',
    `${principal.id} ${principal.tier} ${principal.displayPrefix}`,
    'X-Tai-Charge-Log',
    reader.name,
  ];
}

const NOT_STORED = ['Cache-Control', 'no-store'];

/**
 * The answer for a release with no file to send (this instance's release was removed and no
 * release holding these bytes is there; a 304 needs the file's length too): a 503, retried
 * shortly (the instance sends from the release its DIST_DIR points at as soon as one is,
 * releaseTracker). What spoke of the file's bytes does not speak of this problem's: unsigned.
 */
function filesReplaced(res: ServerResponse, headers: Map<string, string>): string {
  noteProblem(res, 'service_unavailable');
  headers.set('content-type', PROBLEM_CONTENT_TYPE);
  headers.set('cache-control', 'no-store');
  headers.set('retry-after', RELEASE_RETRY_SECONDS);
  for (const h of ['etag', 'vary', 'content-encoding', ...OF_THE_BYTES])
    headers.delete(h.toLowerCase());
  return JSON.stringify(
    problemBody(
      'service_unavailable',
      'The files of this answer are being replaced; retry after the time in Retry-After.',
      instanceFor(headers.get('x-request-id')),
    ),
  );
}

/**
 * The authorization answer made from the pipeline's decision for the original target: 204 with
 * the file to send, or 401 with the problem, every forwarded field as X-Tai-<name> (no body).
 */
function authAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  release: Release | null,
  reuse: Reuse,
): Fold {
  return (decision) => {
    let status = decision.status;
    const headers = headerMap(decision.headers);
    let body =
      typeof decision.body === 'object' && 'file' in decision.body ? undefined : decision.body;
    let file: string | undefined;
    if (status === 200 || status === 304) {
      file = release ? fileFor(headers.get('etag'), release.files) : undefined;
      if (file === undefined) {
        status = 503;
        body = filesReplaced(res, headers);
      }
    }
    const allowed = status === 200 || status === 304;
    const out: string[] = ['X-Tai-Status', String(status)];
    if (file) out.push('X-Tai-File', `/${file}`, 'X-Tai-Root', release!.root);
    const text = !allowed && body !== undefined ? body.toString() : null;
    const problem = text === null ? null : asciiJson(text);
    // A problem nginx must send with its non-ASCII escaped is other bytes than those signed: it
    // goes unsigned rather than with a digest that does not match it.
    const rewritten = problem !== text;
    for (const name of FORWARDED) {
      if (rewritten && OF_THE_BYTES.has(name)) continue;
      const value = headers.get(name.toLowerCase());
      if (value !== undefined) out.push(`X-Tai-${name}`, value);
    }
    if (problem !== null) out.push('X-Tai-Problem', problem);
    const reusable = allowed && file ? reuseHeaders(req, res, headers.get('ratelimit'), reuse) : [];
    out.push(...reusable);
    edgeCounts.decisions++;
    if (reusable.length > 0) edgeCounts.reusable++;
    out.push(...NOT_STORED, 'Content-Length', '0');
    // Metering, metrics and the access log read the status the client gets.
    return { written: { status: allowed ? 204 : 401, headers: out }, status };
  };
}
