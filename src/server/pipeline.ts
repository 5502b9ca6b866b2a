// The request pipeline (ARCHITECTURE.md "Request pipeline"): named steps over one request
// context (steps/context.ts), each in its own file under steps/, called in order below. A step
// returns true when it answered the request; access and answer return a promise only when they
// wait on something (a key or quota not known in memory, the status snapshot, Astro).
import type { Logger } from 'pino';
import type { AccessLog } from './log.ts';
import { identifierIndex, tfinIndex } from '../api/registry-lookup.ts';
import { prepareSortOrders } from '../api/registry-list.ts';
import type { Config } from '../config.ts';
import type { Prebuilt } from '../representation/prebuilt.ts';
import type { Runtime } from './runtime.ts';
import type { StaticFile } from './static-files.ts';
import { astroAnswer, type AstroHandler } from './answers/astro.ts';
import { operationAnswer } from './answers/operation.ts';
import { fairTurns } from './fair-turns.ts';
import { answerStateOf } from '../representation/answer-state.ts';
import { operationalAnswer } from './answers/operational.ts';
import { newContext, type RequestContext } from './steps/context.ts';
import { receiveBodyFirst } from './steps/body.ts';
import { clientIp, connection } from './steps/connection.ts';
import { createMemo } from './steps/memo.ts';
import { target } from './steps/target.ts';
import { found, route } from './steps/route.ts';
import { headers } from './steps/headers.ts';
import { method } from './steps/method.ts';
import { access, addressBlocked } from './steps/access.ts';
import { refusalLimit } from '../access/refusal-limit.ts';
import { KEYED_WINDOW_MS, REFUSED_READS_PER_TURN, refusedReads } from './refused-reads.ts';
import { answer, type Answers } from './steps/answer.ts';
import { onCloseWith } from './steps/on-close.ts';
import { refuse } from './steps/refuse.ts';
import { signedDownload, type DownloadDeps } from './signed-downloads.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseSigner } from '../representation/response-signer.ts';
import type { PublicJwk } from '../representation/signing-key.ts';

export type { AstroHandler };

/** A caller's computed answers waiting for their turn before more are made at once (fair-turns.ts). */
const MAX_WAITING_PER_CALLER = 64;

export interface PipelineDeps {
  config: Config;
  log: Logger;
  /** The access log: one line per request (see log.ts). */
  access: AccessLog;
  prebuilt: Prebuilt;
  staticFiles: Map<string, StaticFile>;
  astro: AstroHandler;
  runtime: Runtime;
  /** True once shutdown began: answer, but close keep-alive connections. */
  draining: () => boolean;
  /** Sets the send timeout on the request's socket (connections.ts `sendTimeoutArmer`). */
  armSendTimeout: (req: IncomingMessage) => void;
  /** Signs /v1 answers; null runs unsigned (no SIGNING_KEY_FILE). */
  signer: ResponseSigner | null;
  /** The public keys served at /.well-known/jwks.json. */
  jwks: { keys: PublicJwk[] };
  /** Signed download URLs (signed-downloads.ts); absent: none offered. */
  downloads?: DownloadDeps;
}

export function createPipeline(deps: PipelineDeps) {
  const { config, log, prebuilt, runtime } = deps;
  // Built at start, so no request pays for them: every sort order, and the suggestion index.
  prepareSortOrders(prebuilt.registry.core.registry.rows);
  tfinIndex(prebuilt.registry);
  identifierIndex(prebuilt.registry.core.registry.rows);
  // The answers' state, shared with Astro's endpoints (locals.answers): one copy of the build.
  const state = answerStateOf(prebuilt, config.TAI_DATASET, runtime.status);
  const memo = createMemo();
  // Refusals without a working key, per client address (refusal-limit.ts): counted on close,
  // checked first.
  const refusals = refusalLimit(config.REFUSAL_LIMIT);
  const blockDeps = { auth: runtime.auth, refusals };
  // Refused connections are read again in turns (refused-reads.ts).
  const reads = refusedReads(REFUSED_READS_PER_TURN, KEYED_WINDOW_MS);
  const onClose = onCloseWith({ ...deps, refusals, refusedReads: reads });
  const ipOf = clientIp(config.TRUST_PROXY);
  const targetDeps = { maxUrlBytes: config.MAX_URL_BYTES, memo };
  const headersDeps = { version: prebuilt.core.dataset_version, signer: deps.signer };
  const answers: Answers = {
    fastPath: config.FAST_PATH === 'on',
    operational: operationalAnswer(config, runtime, prebuilt, deps.draining, {
      kid: deps.signer?.kid ?? null,
      jwks: deps.jwks,
    }),
    operation: operationAnswer(state, memo, fairTurns(MAX_WAITING_PER_CALLER)),
    astro: astroAnswer(deps.astro, state, runtime, deps.signer),
  };

  const fail = (ctx: RequestContext) => (err: unknown) => {
    log.error(
      { req_id: ctx.requestId, err: err instanceof Error ? err.message : String(err) },
      'request failed',
    );
    if (!ctx.res.headersSent) refuse(ctx, 'internal', {});
    else ctx.res.destroy();
  };

  const downloads: DownloadDeps = deps.downloads ?? {
    token: undefined,
    seconds: 0,
    release: '',
    chargeLog: () => undefined,
  };
  /** Once the key is accepted: a signed download URL asked for (delivery=), else the answer. */
  const delivered = (ctx: RequestContext) => signedDownload(ctx, downloads);

  /** Access, then the answer; true while one of them waits on a promise. */
  function accessAndAnswer(ctx: RequestContext): boolean {
    try {
      const refused = ctx.route === 'api' ? access(ctx, runtime) : false;
      if (refused === true) return false;
      if (refused === false) {
        if (delivered(ctx)) return false;
        const answered = answer(ctx, answers);
        if (!answered) return false;
        answered.catch(fail(ctx));
        return true;
      }
      refused
        .then((r) => (r || delivered(ctx) ? undefined : answer(ctx, answers)))
        .catch(fail(ctx));
      return true;
    } catch (err) {
      fail(ctx)(err);
      return false;
    }
  }

  /** The steps in order; true while the answer waits on a promise. */
  function steps(ctx: RequestContext): boolean {
    if (connection(ctx, deps) || target(ctx, targetDeps)) return false;
    route(ctx, deps);
    headers(ctx, headersDeps);
    if (ctx.route !== 'ops' && addressBlocked(ctx, blockDeps)) return false;
    if (found(ctx) || method(ctx)) return false;
    if (ctx.route === 'api') ctx.operation = ctx.path;
    return accessAndAnswer(ctx);
  }

  // The send timeout (a client that never reads its answers), armed here and nowhere else: Node
  // clears a socket's timeout when a keep-alive connection gets its next request, so it is set
  // again for every request, except for a remembered target answered at once: its answer is all
  // in the kernel's hands after `end` unless bytes are still queued, and only then is the timeout
  // set. An armed timeout is refreshed on every read and write of the socket; most fast answers
  // never arm it. `run` says whether this request's timeout is to be set.
  function run(req: IncomingMessage, res: ServerResponse): boolean {
    const ctx = newContext(req, res, ipOf(req));
    onClose(ctx);
    const waiting = steps(ctx);
    return waiting || !ctx.hot || res.writableLength > 0;
  }

  return function handle(req: IncomingMessage, res: ServerResponse): void {
    // A body read first (handle runs again once it is in) leaves the request waiting too.
    if (receiveBodyFirst(req, res, handle) || run(req, res)) deps.armSendTimeout(req);
  };
}
