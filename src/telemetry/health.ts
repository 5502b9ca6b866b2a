// Liveness and readiness, defined once (docs/production.md "Health endpoints"):
//
// - live (/healthz 200): the process runs and its event loop answers. Nothing else: restarting a
//   process because its database is away would not bring the database back.
// - ready (/readyz 200, "ready"): the dataset is loaded and checked, and the database took our
//   last write. Send traffic.
// - degraded (/readyz 200, "degraded"): the dataset is fine, but the database has failed for
//   less than the stale-key grace: every key seen within it keeps working from the cache and
//   metering goes to the local journal. Keep sending traffic: a database blip must not take
//   every replica out of rotation at once.
// - not ready (/readyz 503): the dataset failed its check, or shutdown began, or no database
//   write has succeeded within the grace (paying keys would be refused). Stop sending traffic.
//
// Readiness reads no database on each probe: it uses the outcome of the writes the instance
// makes anyway (heartbeats every HEARTBEAT_MS, metering flushes), so a write that fails (a locked
// or corrupt file, a read-only volume) counts, and a probe can never hang on a hung database.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Readiness {
  status: 'ready' | 'degraded' | 'not_ready';
  http: 200 | 503;
  body: Record<string, unknown>;
}

export class Health {
  private lastOk: number | null = null;
  private failingSince: number | null = null;
  private readonly graceMs: number;
  private readonly now: () => number;
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });

  constructor(options: { graceMs: number; now?: () => number }) {
    this.graceMs = options.graceMs;
    this.now = options.now ?? Date.now;
    this.loop.enable();
  }

  databaseOk(): void {
    this.lastOk = this.now();
    this.failingSince = null;
  }

  /** (The error itself goes to the log, not to the public probe body.) */
  databaseFailed(): void {
    this.failingSince ??= this.now();
  }

  /** Liveness detail: the event loop's recent delay (the probe answering at all is the signal). */
  liveness(): Record<string, unknown> {
    const body = {
      status: 'ok',
      event_loop_delay_ms: {
        p99: Math.round(this.loop.percentile(99) / 1e4) / 100,
        max: Math.round(this.loop.max / 1e4) / 100,
      },
    };
    this.loop.reset();
    return body;
  }

  readiness(
    dataset: { ok: boolean; version: string; detail?: string },
    draining: boolean,
  ): Readiness {
    const now = this.now();
    const database = {
      status: this.failingSince === null && this.lastOk !== null ? 'ok' : 'unreachable',
      last_ok_seconds_ago: this.lastOk === null ? null : Math.round((now - this.lastOk) / 1000),
    };
    const body = {
      dataset: {
        ok: dataset.ok,
        version: dataset.version,
        ...(dataset.detail ? { detail: dataset.detail } : {}),
      },
      database,
    };
    if (draining)
      return {
        status: 'not_ready',
        http: 503,
        body: { status: 'not_ready', reason: 'shutting down', ...body },
      };
    if (!dataset.ok)
      return {
        status: 'not_ready',
        http: 503,
        body: { status: 'not_ready', reason: 'dataset check failed', ...body },
      };
    if (database.status === 'ok')
      return { status: 'ready', http: 200, body: { status: 'ready', ...body } };
    // Within the grace cached keys still work: keep serving. A process that never reached the
    // database has no cached keys: it cannot serve a paying key.
    if (this.lastOk === null)
      return {
        status: 'not_ready',
        http: 503,
        body: {
          status: 'not_ready',
          reason: 'database not reached since start: no cached keys',
          ...body,
        },
      };
    if (now - this.lastOk < this.graceMs)
      return {
        status: 'degraded',
        http: 200,
        body: {
          status: 'degraded',
          reason: 'database unreachable: keys from cache, metering journaled locally',
          ...body,
        },
      };
    return {
      status: 'not_ready',
      http: 503,
      body: {
        status: 'not_ready',
        reason: 'database unreachable beyond the stale-key grace',
        ...body,
      },
    };
  }
}
