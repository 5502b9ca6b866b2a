// Signed download URLs (docs/production.md "Signed download URLs"; issue 37, candidate (a)): an
// Enterprise key asks a dataset operation with `delivery=signed_url` (and `format=` or Accept for
// CSV or NDJSON) and is answered 303 See Other with a short-lived URL of the operation's whole
// body in this instance's release. nginx checks the URL itself (`secure_link`) and sends the file
// with sendfile: no subrequest, no instance in the way. Each download nginx serves from such a
// URL is one line in this instance's charge log, charged here like any request the edge answered
// (edge-charges.ts): once, to the key named by the URL.
//
// What the URL carries, all covered by its MD5: the expiry, the path of the file, the key's id,
// tier and public prefix (never the key), the operation charged, the release directory the file
// is sent from (so a release switch never sends other bytes under a URL) and the charge log it is
// charged to. The MD5 is keyed with EDGE_AUTH_TOKEN, the secret nginx and the instances already
// share: nginx's secure_link computes MD5 only (no HMAC in stock nginx), which is safe here because
// the server alone chooses every field it signs and the expiry bounds how long a URL is worth
// anything (docs: why MD5, and the bound).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { bulkFile, DELIVERY_PARAM, FORMAT_PARAM, MEDIA_TYPES, type Format } from '../api/bulk.ts';
import { negotiateFormat } from '../api/negotiate.ts';
import { OPERATIONS_TABLE } from '../api/operations.ts';
import { readParams } from '../api/params.ts';
import { sendParamProblem, sendUncached } from '../representation/respond.ts';
import type { RequestContext } from './steps/context.ts';
import { refuse } from './steps/refuse.ts';

/** The public path prefix nginx serves signed files under (deploy/nginx/tai-edge.conf.template). */
export const DOWNLOADS_PREFIX = '/downloads/';
/** The tier that may ask for signed URLs. */
export const SIGNED_URL_TIER = 'enterprise';
/** Written into the signed text: an MD5 keyed with the edge token means nothing else. */
const PURPOSE = 'tai-download';

export interface SignedUrlFields {
  /** The file under the release's dist/client, e.g. v1/bulk/registry-assets-csv. */
  file: string;
  id: string;
  tier: string;
  prefix: string;
  /** The operation charged (its path). */
  op: string;
  /** The release directory's name (the parent of its dist/). */
  release: string;
  /** The charge log the download is written to (the issuing instance's port). */
  chargeLog: string;
  /** Epoch seconds after which nginx answers 410. */
  expires: number;
}

/**
 * The URL (origin-relative) and its MD5, exactly as the template's `secure_link_md5` rebuilds it:
 * "$secure_link_expires|$uri|$arg_id|$arg_tier|$arg_prefix|$arg_op|$arg_r|$arg_c|tai-download <token>".
 * Every value is URL-safe as written (nginx's $arg_ variables are not decoded).
 */
export function signedUrl(f: SignedUrlFields, token: string): string {
  const uri = `${DOWNLOADS_PREFIX}${f.file}`;
  const md5 = createHash('md5')
    .update(
      `${f.expires}|${uri}|${f.id}|${f.tier}|${f.prefix}|${f.op}|${f.release}|${f.chargeLog}|${PURPOSE} ${token}`,
    )
    .digest('base64url');
  return `${uri}?id=${f.id}&tier=${f.tier}&prefix=${f.prefix}&op=${f.op}&r=${f.release}&c=${f.chargeLog}&expires=${f.expires}&md5=${md5}`;
}

/** The release directory's name for a resolved DIST_DIR (`.releases/<name>/dist`). */
export const releaseName = (distDir: string) => path.basename(path.dirname(distDir));

export interface DownloadDeps {
  /** EDGE_AUTH_TOKEN; unset: no edge, no signed URLs. */
  token: string | undefined;
  /** How long an issued URL is valid (EDGE_SIGNED_URL_SECONDS). */
  seconds: number;
  /** This instance's release directory's name (releaseName). */
  release: string;
  /** The charge log the edge writes this instance's downloads to; undefined: not charging. */
  chargeLog(): string | undefined;
  now?: () => number;
}

const VALUE = /^[0-9A-Za-z._-]{1,64}$/;

/**
 * The step: a request of a dataset operation naming `delivery` is answered here (true), after the
 * key and quota were accepted, never by the operation's answer. 303 with the URL for an
 * Enterprise key; 403 for any other; 404 on a deployment without the edge and its charge log.
 */
export function signedDownload(ctx: RequestContext, deps: DownloadDeps): boolean {
  if (ctx.route !== 'api' || !ctx.search.includes(DELIVERY_PARAM.name)) return false;
  const search = new URLSearchParams(ctx.search);
  const op = OPERATIONS_TABLE.at(ctx.path);
  if (!search.has(DELIVERY_PARAM.name) || op?.kind !== 'dataset') return false;
  const read = readParams(search, [DELIVERY_PARAM, FORMAT_PARAM]);
  if (!read.ok) {
    sendParamProblem(ctx.req, ctx.res, ctx, read.problem);
    return true;
  }
  const principal = ctx.principal;
  if (principal?.kind !== 'key' || principal.tier !== SIGNED_URL_TIER)
    return refuse(ctx, 'signed_url_tier', {
      tier: principal?.kind === 'key' ? principal.tier : 'demo',
    });
  const chargeLog = deps.chargeLog();
  if (!deps.token || chargeLog === undefined || !VALUE.test(deps.release))
    return refuse(ctx, 'signed_urls_off', {});
  const format =
    (read.values['format'] as Format | undefined) ?? negotiateFormat(ctx.req.headers.accept);
  const file = format === 'json' ? op.path.slice(1) : bulkFile(op.path, format);
  const expires = Math.floor((deps.now?.() ?? Date.now()) / 1000) + deps.seconds;
  const url = signedUrl(
    {
      file,
      id: principal.id,
      tier: principal.tier,
      prefix: principal.displayPrefix,
      op: op.path,
      release: deps.release,
      chargeLog,
      expires,
    },
    deps.token,
  );
  const body = JSON.stringify({
    href: url,
    expires_at: new Date(expires * 1000).toISOString(),
    media_type: MEDIA_TYPES[format],
  });
  sendUncached(ctx.req, ctx.res, ctx, 303, MEDIA_TYPES.json, body, ['Location', url]);
  return true;
}
