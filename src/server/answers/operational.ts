// The operational endpoints: liveness and readiness as defined in telemetry/health.ts (README
// "Health endpoints": no database query per probe, so a probe never waits on a hung database),
// /metrics (with METRICS_TOKEN a bearer token; without, loopback clients only), and the public
// keys that verify the /v1 signatures (/.well-known/jwks.json, RFC 7517).
import { quotaBackendHealth } from '../../access/quotas.ts';
import { isLoopback } from '../../lib/client-address.ts';
import { safeEqual } from '../../lib/safe-equal.ts';
import type { Config } from '../../config.ts';
import { artifactIntegrity } from '../../dataset/integrity.ts';
import type { Prebuilt } from '../../representation/prebuilt.ts';
import { sendPrecomputed, sendUncached } from '../../representation/respond.ts';
import { precompute } from '../../representation/precomputed.ts';
import type { PublicJwk } from '../../representation/signing-key.ts';
import { JWKS_PATH } from '../steps/route.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestContext } from '../steps/context.ts';
import { refuse } from '../steps/refuse.ts';

export function operationalAnswer(
  config: Pick<Config, 'METRICS_TOKEN'>,
  runtime: Pick<Runtime, 'health' | 'metrics'>,
  prebuilt: Pick<Prebuilt, 'core'>,
  draining: () => boolean,
  signing: { kid: string | null; jwks: { keys: PublicJwk[] } },
) {
  // Readiness says whether answers are signed (and with which key): unsigned is a choice, not a fault.
  const signed = signing.kid ? { signed: true, kid: signing.kid } : { signed: false };
  const jwks = precompute(JSON.stringify(signing.jwks), 'application/jwk-set+json');
  const json = (ctx: RequestContext, status: number, body: unknown) =>
    sendUncached(ctx.req, ctx.res, ctx, status, 'application/json', JSON.stringify(body));

  /**
   * Readiness input for the dataset: loaded and verified at start (startApp refuses to start
   * otherwise), its files' sizes re-checked while running (integrity.ts). Which files are
   * damaged goes to the start-up log, not to the public probe.
   */
  const datasetIntegrity = () => {
    const report = artifactIntegrity();
    return {
      ok: report.ok,
      version: prebuilt.core.dataset_version,
      ...(report.ok ? {} : { detail: `${report.problems.length} built file(s) damaged` }),
    };
  };

  return async function operational(ctx: RequestContext): Promise<void> {
    const { req, path } = ctx;
    if (path === '/healthz') return json(ctx, 200, runtime.health.liveness());
    if (path === '/readyz') {
      const r = runtime.health.readiness(datasetIntegrity(), draining());
      return json(ctx, r.http, { ...r.body, quotas: quotaBackendHealth(), signing: signed });
    }
    if (path === JWKS_PATH) {
      ctx.headers.push('Access-Control-Allow-Origin', '*');
      return sendPrecomputed(req, ctx.res, ctx, jwks, { cacheControl: 'public, max-age=300' });
    }
    // Behind a trusted same-host proxy every socket is loopback, so the client is the address
    // the proxy forwarded (`ctx.ip`): both must be loopback.
    const allowed = config.METRICS_TOKEN
      ? safeEqual(req.headers.authorization ?? '', `Bearer ${config.METRICS_TOKEN}`)
      : isLoopback(req.socket.remoteAddress) && isLoopback(ctx.ip);
    if (!allowed) {
      refuse(ctx, 'no_page', { path: '/metrics' });
      return;
    }
    const text = await runtime.metrics.registry.metrics();
    sendUncached(req, ctx.res, ctx, 200, runtime.metrics.registry.contentType, text);
  };
}
