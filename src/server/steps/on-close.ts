// On-close step: when the response closes (finished or aborted), latency and usage for the
// operation (telemetry recorder), Prometheus and operator metrics, and one access line.
//
// The hot path: one listener per response, a function shared by every response (the context is
// found on the response), so no closure or once-wrapper is made per request; one monotonic read
// for the duration.
import { performance } from 'node:perf_hooks';
import type { ServerResponse } from 'node:http';
import type { AccessEntry, AccessLog } from '../log.ts';
import { problemCodeOf, recordRequest } from '../operator-metrics.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestContext } from './context.ts';
import type { RefusalLimit } from '../../access/refusal-limit.ts';
import type { RefusedReads } from '../refused-reads.ts';
import { addressKey } from '../../lib/client-address.ts';

export interface OnCloseDeps {
  runtime: {
    recorder: Pick<Runtime['recorder'], 'record'>;
    metrics: Pick<Runtime['metrics'], 'observe'>;
  };
  access: AccessLog;
  /** Counts the refusals of requests without a working key against their address. */
  refusals?: Pick<RefusalLimit, 'refused'>;
  /** Reads a connection whose request was refused without a working key in its turn. */
  refusedReads?: Pick<RefusedReads, 'defer' | 'keyed'>;
}

/** The context of the request a response answers, until it closes. */
const CONTEXT = Symbol('tai.context');
type Closing = ServerResponse & { [CONTEXT]?: RequestContext | undefined };

/** The context of the request `res` answers, until it closes (edge-auth.ts reads who was served). */
export function contextOf(res: ServerResponse): RequestContext | undefined {
  return (res as Closing)[CONTEXT];
}

/**
 * What every served request records, whoever served it (this step, or the edge from a reused
 * decision: edge-charges.ts): latency and usage for its operation, metrics, one access line.
 * `billedTo` is the key's id, DEMO_KEY or null; `ms` unrounded (the line rounds it to a µs).
 */
export function recordServed(
  deps: OnCloseDeps,
  served: { operation: string | null; billedTo: string | null; ms: number },
  line: AccessEntry,
): void {
  const { operation, ms } = served;
  if (operation) {
    deps.runtime.recorder.record(operation, served.billedTo, ms, line.status);
    deps.runtime.metrics.observe(operation, line.status);
  }
  recordRequest(operation, ms / 1000, line.status, line.code);
  deps.access(line);
}

function closed(ctx: RequestContext, deps: OnCloseDeps): void {
  const { req, res } = ctx;
  const ms = performance.now() - ctx.started;
  const p = ctx.principal;
  const status = res.statusCode;
  const code = problemCodeOf(res);
  if (p) deps.refusedReads?.keyed(req.socket, ctx.started);
  else if (status >= 400 && status < 500) {
    // Refused without a working key (a 429 is the limit itself, not counted again).
    if (status !== 429) deps.refusals?.refused(addressKey(ctx.ip) ?? ctx.ip);
    deps.refusedReads?.defer(req.socket, ctx.started);
  }
  recordServed(
    deps,
    { operation: ctx.operation, billedTo: p ? (p.kind === 'demo' ? 'DEMO_KEY' : p.id) : null, ms },
    {
      reqId: ctx.requestId,
      method: req.method,
      path: ctx.loggedPath,
      status,
      ms: Math.round(ms * 1000) / 1000,
      ip: ctx.ip,
      keyPrefix: p?.kind === 'key' ? p.displayPrefix : p ? 'DEMO_KEY' : undefined,
      aborted: !res.writableFinished,
      code,
    },
  );
}

/** The on-close step for `deps` (made once): call it with each request's context. */
export function onCloseWith(deps: OnCloseDeps): (ctx: RequestContext) => void {
  // The one 'close' listener of every response ('close' comes once: finished or aborted).
  function onResponseClose(this: Closing): void {
    const ctx = this[CONTEXT];
    if (ctx === undefined) return;
    this[CONTEXT] = undefined;
    closed(ctx, deps);
  }
  return (ctx) => {
    const res = ctx.res as Closing;
    res[CONTEXT] = ctx;
    res.on('close', onResponseClose);
  };
}

export function onClose(ctx: RequestContext, deps: OnCloseDeps): void {
  onCloseWith(deps)(ctx);
}
