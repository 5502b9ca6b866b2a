// On-close step: when the response closes (finished or aborted), latency and usage for the
// operation (telemetry recorder), Prometheus and operator metrics, and one access line.
import type { AccessLog } from '../log.ts';
import { problemCodeOf, recordRequest } from '../operator-metrics.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestContext } from './context.ts';

export interface OnCloseDeps {
  runtime: {
    recorder: Pick<Runtime['recorder'], 'record'>;
    metrics: Pick<Runtime['metrics'], 'observe'>;
  };
  access: AccessLog;
}

export function onClose(ctx: RequestContext, deps: OnCloseDeps): void {
  const { req, res } = ctx;
  res.once('close', () => {
    const ms = Number(process.hrtime.bigint() - ctx.started) / 1e6;
    const p = ctx.principal;
    if (ctx.operation) {
      deps.runtime.recorder.record(
        ctx.operation,
        p ? (p.kind === 'demo' ? 'DEMO_KEY' : p.id) : null,
        ms,
        res.statusCode,
      );
      deps.runtime.metrics.observe(ctx.operation, res.statusCode);
    }
    const code = problemCodeOf(res);
    recordRequest(ctx.operation, ms / 1000, res.statusCode, code);
    deps.access({
      reqId: ctx.requestId,
      method: req.method,
      path: ctx.loggedPath,
      status: res.statusCode,
      ms: Math.round(ms * 1000) / 1000,
      ip: ctx.ip,
      keyPrefix: p?.kind === 'key' ? p.displayPrefix : p ? 'DEMO_KEY' : undefined,
      aborted: !res.writableFinished,
      code,
    });
  });
}
