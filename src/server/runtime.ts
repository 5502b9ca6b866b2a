// The live parts of a running instance: the database, who is calling (keys, limits), what is
// recorded (usage, latency, heartbeats) and the status snapshot. Timers flush in the background;
// `stop()` writes what is pending before the process exits.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Authenticator } from '../access/authenticator.ts';
import { FailedAuthLimiter, TierLimiter } from '../access/rate-limit.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import { describeDb, openDb } from '../store/open.ts';
import { migrate } from '../store/migrations.ts';
import { Store } from '../store/store.ts';
import { Metrics } from '../telemetry/metrics.ts';
import { Recorder } from '../telemetry/recorder.ts';
import { StatusService } from '../telemetry/status.ts';
import type { Config } from './config.ts';
import { OPERATIONS } from './routes.ts';

export interface Runtime {
  instanceId: string;
  store: Store;
  auth: Authenticator;
  limits: TierLimiter;
  failedAuth: FailedAuthLimiter;
  recorder: Recorder;
  status: StatusService;
  metrics: Metrics;
  stop(): Promise<void>;
}

export async function startRuntime(
  config: Config,
  dataset: DatasetCore,
  log: Logger,
): Promise<Runtime> {
  const startedAt = Date.now();
  const instance = { id: randomUUID(), startedAt, host: hostname(), pid: process.pid };
  const db = openDb(config);
  const store = new Store(db);
  const metrics = new Metrics();
  const where = describeDb(config);
  // The service starts even when the database is down: data endpoints keep serving, the status
  // says "degraded", and migrations are retried until they succeed.
  let migrated = false;
  const ensureMigrated = async () => {
    if (migrated) return;
    const applied = await migrate(db);
    migrated = true;
    log.info({ database: where, applied }, 'database ready');
  };
  await ensureMigrated().catch((err: unknown) =>
    log.error(
      { database: where, err: (err as Error).message },
      'database unavailable at start; will retry',
    ),
  );

  const recorder = new Recorder(store);
  const status = new StatusService({
    store,
    dataset,
    driver: db.driver,
    endpoints: OPERATIONS.map((o) => o.path),
    startedAt,
    cacheMs: config.STATUS_CACHE_MS,
    aliveWithinMs: config.HEARTBEAT_MS * 3,
    queryTimeoutMs: 1500,
  });
  let outage = false;
  const guard = async (what: string, fn: () => Promise<void>) => {
    try {
      await ensureMigrated();
      await fn();
      metrics.databaseUp.set(1);
      if (outage) log.info({ database: where }, 'database reachable again; pending counts written');
      outage = false;
    } catch (err) {
      metrics.databaseUp.set(0);
      metrics.flushFailures.inc();
      if (!outage)
        log.error(
          { database: where, what, err: (err as Error).message },
          'database write failed; counts kept in memory',
        );
      outage = true;
    } finally {
      metrics.pendingUsage.set(recorder.usage.size);
    }
  };
  const beat = () => guard('heartbeat', () => store.heartbeat(instance, Date.now()));
  const flush = () => guard('metering', () => recorder.flush());
  const prune = () =>
    guard('prune', () => store.prune(Math.floor(Date.now() / 60_000) - 35 * 1440));
  await beat();
  const timers = [
    setInterval(beat, config.HEARTBEAT_MS),
    setInterval(flush, config.FLUSH_MS),
    setInterval(prune, 3_600_000),
  ];
  for (const t of timers) t.unref();

  return {
    instanceId: instance.id,
    store,
    auth: new Authenticator(store, {
      freshMs: config.KEY_CACHE_MS,
      staleGraceMs: config.KEY_STALE_GRACE_MS,
      demoEnabled: config.DEMO_KEY_ENABLED,
    }),
    limits: new TierLimiter({
      demo: config.RATE_LIMIT_DEMO,
      institutional: config.RATE_LIMIT_INSTITUTIONAL,
      enterprise: config.RATE_LIMIT_ENTERPRISE,
    }),
    failedAuth: new FailedAuthLimiter(config.FAILED_AUTH_LIMIT),
    recorder,
    status,
    metrics,
    async stop() {
      for (const t of timers) clearInterval(t);
      await flush();
      await beat();
      await db.close().catch(() => undefined);
    },
  };
}
