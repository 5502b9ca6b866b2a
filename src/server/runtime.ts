// The live parts of a running instance: the database, who is calling (keys, limits), what is
// recorded (usage, latency, heartbeats) and the status snapshot. Timers journal, flush, beat and
// prune in the background; `stop()` writes what is pending before the process exits, and keeps
// it in the local journal when the database cannot take it (docs/production.md "Metering guarantees").
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import { Authenticator } from '../access/authenticator.ts';
import { createQuotas } from '../access/quotas.ts';
import type { FailedAuthGate, QuotaLimiter, Quotas } from '../access/quota-backend.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import { describeDb, openDb } from '../store/open.ts';
import { migrate } from '../store/migrations.ts';
import { Store } from '../store/store.ts';
import { Health } from '../telemetry/health.ts';
import { Metrics } from '../telemetry/metrics.ts';
import { Recorder } from '../telemetry/recorder.ts';
import { Retention } from '../telemetry/retention.ts';
import { StatusService } from '../telemetry/status.ts';
import type { Config } from '../config.ts';
import { OPERATIONS } from '../api/operations.ts';
import { sleep, within } from '../lib/deadline.ts';

/** Counts reach the local journal at least this often (and every JOURNAL_EVERY counts). */
export const JOURNAL_MS = 200;
export const JOURNAL_EVERY = 1000;
/** History kept: the longest status window (30 days) plus a margin. */
const RETENTION_MINUTES = 35 * 1440;
const RETENTION_EVERY_MS = 600_000;

export interface Runtime {
  instanceId: string;
  store: Store;
  auth: Authenticator;
  /** In memory, or shared in Redis with REDIS_URL (src/access/quotas.ts). */
  limits: QuotaLimiter;
  failedAuth: FailedAuthGate;
  recorder: Recorder;
  status: StatusService;
  metrics: Metrics;
  health: Health;
  /** Writes what is pending by `deadline` (epoch ms), else journals it locally; never throws. */
  stop(deadline?: number): Promise<void>;
}

type Db = ReturnType<typeof openDb>;
type Guard = (what: string, fn: () => Promise<void>) => Promise<boolean>;

/**
 * Opens the database. The service starts even when it is down: data endpoints keep serving, the
 * status says "degraded", and migrations are retried (`ensureMigrated`) until they succeed.
 */
async function openDatabase(config: Config, log: Logger) {
  const db = openDb(config);
  const where = describeDb(config);
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
  return { db, where, ensureMigrated };
}

/** The usage recorder and its local journal, reporting journal failures and carried-over counts. */
function startRecorder(config: Config, store: Store, metrics: Metrics, log: Logger) {
  const journalDir = config.METERING_DIR ?? path.join(config.DATA_DIR, 'metering');
  let journalFailing = false;
  const recorder = new Recorder(store, {
    journalDir,
    journalEvery: JOURNAL_EVERY,
    onJournalError: (err) => {
      metrics.journalErrors.inc();
      if (!journalFailing)
        log.error({ dir: journalDir, err: err.message }, 'metering journal write failed');
      journalFailing = true;
    },
    onQuarantine: (q) => {
      if (q.excess) metrics.journalOverBound.inc(q.excess);
      metrics.journalQuarantined.inc({
        what: q.excess ? 'over_bound' : q.line === undefined ? 'segment' : 'line',
      });
      log.warn(
        { file: q.file, line: q.line, reason: q.reason, moved_to: q.movedTo },
        'metering journal entry failed its check: moved aside, not replayed',
      );
    },
  });
  const carried = recorder.carriedOver;
  if (carried) {
    log.info({ requests: carried, dir: journalDir }, 'metering carried over from a previous run');
    metrics.carriedOver.inc(carried);
  }
  return { recorder, journalDir };
}

/**
 * Every database write runs through this: migrations first, then the write; its outcome sets
 * health and metrics, and an outage is logged once when it starts and once when it ends.
 */
function databaseGuard(
  parts: { ensureMigrated: () => Promise<void>; where: string; health: Health; metrics: Metrics },
  recorder: Recorder,
  log: Logger,
): Guard {
  const { ensureMigrated, where, health, metrics } = parts;
  let outage = false;
  return async (what, fn) => {
    try {
      await ensureMigrated();
      await fn();
      health.databaseOk();
      metrics.databaseUp.set(1);
      if (outage) log.info({ database: where }, 'database reachable again; pending counts written');
      outage = false;
      return true;
    } catch (err) {
      health.databaseFailed();
      metrics.databaseUp.set(0);
      metrics.flushFailures.inc();
      if (!outage)
        log.error(
          { database: where, what, err: (err as Error).message },
          'database write failed; counts kept in memory and in the local journal',
        );
      outage = true;
      return false;
    } finally {
      metrics.pendingUsage.set(recorder.usage.size);
    }
  };
}

/**
 * The heartbeat. Running intervals (availability): one interval while the heartbeat timer keeps
 * ticking, even through a database outage (the instance served all along); a gap in the ticks
 * themselves (the process was frozen or suspended) starts a new one.
 */
function heartbeat(
  config: Config,
  store: Store,
  instance: { id: string; startedAt: number; host: string; pid: number },
  guard: Guard,
) {
  let intervalFrom = instance.startedAt;
  let lastTick = instance.startedAt;
  return () =>
    guard('heartbeat', () => {
      const now = Date.now();
      if (now - lastTick > config.HEARTBEAT_MS * 2 + 5000) intervalFrom = now;
      lastTick = now;
      return store.heartbeat(instance, intervalFrom, now);
    });
}

/** Metering to the database; logs once when the counts carried over from a crash are written. */
function meteringFlush(recorder: Recorder, guard: Guard, log: Logger) {
  let carried = recorder.carriedOver;
  return () =>
    guard('metering', async () => {
      await recorder.flush();
      if (carried && recorder.carriedOver === 0) {
        log.info({ requests: carried }, 'carried-over metering written to the database');
        carried = 0;
      }
    });
}

/** Quotas in memory or on Redis; Redis's outages and returns go to the log. */
function startQuotas(config: Config, log: Logger) {
  return createQuotas(config, {
    down: (err) =>
      log.error(
        { err, fallback_share: config.REDIS_FALLBACK_SHARE },
        'Redis unreachable: quotas counted per instance at the fallback share',
      ),
    up: (ms) => log.info({ down_ms: ms }, 'Redis reachable again: quotas shared'),
  });
}

/**
 * Stops the timers and writes what is pending by `deadline`. Each step is bounded by the
 * deadline. A write cut short may still commit later: its batch is sealed in the journal under
 * its id, so the replay at the next start skips it then.
 */
async function stopRuntime(
  parts: {
    timers: NodeJS.Timeout[];
    retention: Retention;
    recorder: Recorder;
    journalDir: string;
    guard: Guard;
    beat: () => Promise<boolean>;
    quotas: Quotas;
    db: Db;
  },
  log: Logger,
  deadline: number,
): Promise<void> {
  const { recorder, guard, db } = parts;
  for (const t of parts.timers) clearInterval(t);
  parts.retention.stop();
  const remaining = () => Math.max(0, deadline - Date.now());
  // Let a running flush finish, then write the rest; retried until the deadline.
  let written = false;
  for (let attempt = 0; !written; attempt++) {
    written =
      (await within(
        guard('metering at shutdown', () => (attempt === 0 ? recorder.drain() : recorder.flush())),
        remaining(),
      )) ?? false;
    if (written || remaining() <= 250) break;
    await sleep(250);
  }
  const left = recorder.usage.pendingCount + recorder.carriedOver;
  await recorder.closeJournal();
  // Gives unspent quota leases back to Redis (bounded by REDIS_TIMEOUT_MS inside).
  await parts.quotas.close();
  if (!written)
    log.warn(
      { requests: left, dir: parts.journalDir },
      'database unreachable at shutdown: pending usage kept in the local journal for the next start',
    );
  if (remaining() > 0) await within(parts.beat(), remaining());
  await within(
    db.close().catch(() => undefined),
    Math.max(500, remaining()),
  );
}

export async function startRuntime(
  config: Config,
  dataset: DatasetCore,
  log: Logger,
): Promise<Runtime> {
  const startedAt = Date.now();
  const instance = { id: randomUUID(), startedAt, host: hostname(), pid: process.pid };
  const { db, where, ensureMigrated } = await openDatabase(config, log);
  const store = new Store(db);
  const health = new Health({ graceMs: config.KEY_STALE_GRACE_MS });

  const status = new StatusService({
    store,
    dataset,
    endpoints: OPERATIONS.map((o) => o.path),
    cacheMs: config.STATUS_CACHE_MS,
    aliveWithinMs: config.HEARTBEAT_MS * 3,
    queryTimeoutMs: 1500,
  });
  const metrics = new Metrics(db.driver, () => status.operatorFacts());
  const { recorder, journalDir } = startRecorder(config, store, metrics, log);
  const guard = databaseGuard({ ensureMigrated, where, health, metrics }, recorder, log);
  const beat = heartbeat(config, store, instance, guard);
  const flush = meteringFlush(recorder, guard, log);
  const retention = new Retention(store, RETENTION_MINUTES);
  const prune = () => guard('retention', () => retention.run());
  await beat();
  // Retention starts now (in small steps, in the background), not after the first interval.
  void prune();
  const timers = [
    setInterval(beat, config.HEARTBEAT_MS),
    setInterval(flush, config.FLUSH_MS),
    setInterval(() => void recorder.journalNow(), JOURNAL_MS),
    setInterval(prune, RETENTION_EVERY_MS),
  ];
  for (const t of timers) t.unref();

  const quotas = await startQuotas(config, log);
  const parts = { timers, retention, recorder, journalDir, guard, beat, quotas, db };
  let stopping: Promise<void> | null = null;

  return {
    instanceId: instance.id,
    store,
    auth: new Authenticator(store, {
      freshMs: config.KEY_CACHE_MS,
      staleGraceMs: config.KEY_STALE_GRACE_MS,
      demoEnabled: config.DEMO_KEY_ENABLED,
    }),
    limits: quotas.limits,
    failedAuth: quotas.failedAuth,
    recorder,
    status,
    metrics,
    health,
    stop: (deadline = Date.now() + 5000) =>
      (stopping ??= stopRuntime(parts, log, deadline).catch((err: unknown) =>
        log.error({ err: (err as Error).message }, 'stop failed'),
      )),
  };
}
