// The /v1/system/status body, what the public sees: health, availability as users experienced it
// (the union of every instance's running intervals: the service is up while any instance
// answers), latency percentiles from the merged histograms, and the dataset's freshness. Built
// at most once a second; requests get the latest snapshot while the next one is being built.
// Operator facts (keys, traffic, instances, the database driver) go to /metrics (operatorFacts).
import type { SystemStatusBody } from '../domain/api-status.ts';
import { datasetMeta, type DatasetCore } from '../dataset/artifact.ts';
import type { Store } from '../store/store.ts';
import { percentiles } from './histogram.ts';
import { withDeadline } from '../lib/deadline.ts';

export const SLA_TARGET_PCT = 99.99;
const LATENCY_WINDOWS = { '5m': 5, '1h': 60, '24h': 1440 } as const;
const AVAILABILITY_WINDOWS = { '24h': 1440, '7d': 10_080, '30d': 43_200 } as const;
const PS = [50, 90, 95, 99];

export interface StatusDeps {
  store: Store | null;
  dataset: DatasetCore;
  endpoints: readonly string[];
  cacheMs: number;
  /** Instances whose last heartbeat is this recent count as alive (and running until now). */
  aliveWithinMs: number;
  queryTimeoutMs: number;
  now?: () => number;
}

/** `p` within `ms`, else a failure naming the database (the status then reports it down). */
const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  withDeadline(p, ms, () => {
    throw new Error(`database did not answer within ${ms} ms`);
  });

export class StatusService {
  private snapshot: { body: SystemStatusBody; json: string; at: number } | null = null;
  private building: Promise<void> | null = null;
  private readonly now: () => number;

  private readonly deps: StatusDeps;

  constructor(deps: StatusDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /**
   * The latest snapshot's JSON, refreshed when older than cacheMs (stale is served meanwhile):
   * synchronous once a snapshot exists, so a status request makes no promise.
   */
  latest(): string | Promise<string> {
    const s = this.snapshot;
    if (s && this.now() - s.at < this.deps.cacheMs) return s.json;
    const building = (this.building ??= this.build().finally(() => (this.building = null)));
    return s ? s.json : building.then(() => this.snapshot!.json);
  }

  private async build(): Promise<void> {
    const body = await this.compute();
    this.snapshot = { body, json: JSON.stringify(body), at: this.now() };
  }

  async compute(): Promise<SystemStatusBody> {
    const { dataset, store } = this.deps;
    const now = this.now();
    const minute = Math.floor(now / 60_000);
    let db: Awaited<ReturnType<StatusService['readDatabase']>> | null = null;
    if (store) {
      try {
        db = await withTimeout(this.readDatabase(store, now, minute), this.deps.queryTimeoutMs);
      } catch {
        db = null;
      }
    }
    const emptyWindow = { availability_pct: null, minutes_observed: 0, minutes_up: 0 };
    const overall = overallState(db !== null, db?.availability['24h'] ?? emptyWindow);
    return {
      data: {
        status: overall.status,
        status_reason: overall.reason,
        uptime: {
          sla_target_pct: SLA_TARGET_PCT,
          windows: db?.availability ?? {
            '24h': emptyWindow,
            '7d': emptyWindow,
            '30d': emptyWindow,
          },
        },
        latency: db?.latency ?? [],
        platform: {
          dataset_version: dataset.dataset_version,
          dataset_as_of: dataset.as_of,
          counts: {
            assets: dataset.registry.rows.length,
            ...verifiedCounts(dataset.registry.rows),
            stablecoins: dataset.market.coins.length,
            venues: dataset.market.venues.length,
            member_states: dataset.mica.member_states.length,
            jurisdictions: dataset.mica.coverage.jurisdictions,
          },
          standards: { registry: 'Registry data standard 1.2 (May 2026)', methodology: 'GTDS 2.1' },
          freshness: dataset.freshness,
        },
        observed_at: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
      meta: datasetMeta(dataset, dataset.as_of),
    };
  }

  /** What only operators see (exported on /metrics): keys, traffic and instances. */
  async operatorFacts(): Promise<{ activeKeys: number; requests24h: number; instances: number }> {
    const store = this.deps.store;
    if (!store) throw new Error('no database');
    const now = this.now();
    return withTimeout(
      (async () => ({
        activeKeys: await store.activeKeyCount(),
        requests24h: await store.requestsSince(Math.floor(now / 60_000) - 1439),
        instances: await store.instancesAlive(now, this.deps.aliveWithinMs),
      }))(),
      this.deps.queryTimeoutMs,
    );
  }

  private async readDatabase(store: Store, now: number, minute: number) {
    const latency = new Map<string, Record<string, ReturnType<typeof percentiles>>>();
    for (const [name, minutes] of Object.entries(LATENCY_WINDOWS)) {
      const rows = await store.latencyWindow(minute - minutes + 1);
      const byEndpoint = new Map<string, Map<number, number>>();
      for (const r of rows) {
        const m = byEndpoint.get(r.endpoint) ?? new Map<number, number>();
        m.set(r.bucket, (m.get(r.bucket) ?? 0) + r.requests);
        byEndpoint.set(r.endpoint, m);
      }
      for (const endpoint of this.deps.endpoints) {
        const windows = latency.get(endpoint) ?? {};
        windows[name] = percentiles(byEndpoint.get(endpoint) ?? new Map(), PS);
        latency.set(endpoint, windows);
      }
    }
    const longest = Math.max(...Object.values(AVAILABILITY_WINDOWS)) * 60_000;
    const { intervals, first } = await store.uptimeIntervals(now - longest, now);
    const availability = {} as Record<keyof typeof AVAILABILITY_WINDOWS, AvailabilityWindow>;
    for (const [name, minutes] of Object.entries(AVAILABILITY_WINDOWS) as [
      keyof typeof AVAILABILITY_WINDOWS,
      number,
    ][]) {
      const { upMs, observedMs } = availabilityIn(
        intervals,
        first,
        now - minutes * 60_000,
        now,
        this.deps.aliveWithinMs,
      );
      availability[name] = {
        availability_pct: observedMs > 0 ? Math.floor((upMs / observedMs) * 100_000) / 1000 : null,
        minutes_observed: Math.floor(observedMs / 60_000),
        minutes_up: Math.floor(upMs / 60_000),
      };
    }
    return {
      latency: [...latency].map(([endpoint, w]) => ({
        endpoint,
        windows: Object.fromEntries(
          Object.entries(w).map(([k, v]) => [
            k,
            {
              count: v.count,
              p50_ms: v.values[0]!,
              p90_ms: v.values[1]!,
              p95_ms: v.values[2]!,
              p99_ms: v.values[3]!,
            },
          ]),
        ) as SystemStatusBody['data']['latency'][number]['windows'],
      })),
      availability,
    };
  }
}

type AvailabilityWindow = {
  availability_pct: number | null;
  minutes_observed: number;
  minutes_up: number;
};

/**
 * The overall state, from what the body shows: `degraded` when live figures cannot be read, or
 * when availability over the 24 h window (since monitoring began, when that is shorter) is below
 * the SLA target; `ok` otherwise (also before a first minute has been observed). A restart after
 * an outage therefore reads `degraded` until the window's availability is back at the target,
 * never "ok" beside a low figure.
 */
export function overallState(
  live: boolean,
  day: AvailabilityWindow,
): { status: 'ok' | 'degraded'; reason: string } {
  if (!live)
    return {
      status: 'degraded',
      reason: 'Live figures could not be read: availability and latency are not shown.',
    };
  const pct = day.availability_pct;
  const over = `over the last 24 h observed (${day.minutes_up} of ${day.minutes_observed} minutes up)`;
  if (pct === null)
    return { status: 'ok', reason: 'Up; less than a minute observed since monitoring began.' };
  if (pct < SLA_TARGET_PCT)
    return {
      status: 'degraded',
      reason: `Availability ${pct} % ${over}, below the ${SLA_TARGET_PCT} % target.`,
    };
  return {
    status: 'ok',
    reason: `Availability ${pct} % ${over}, at or above the ${SLA_TARGET_PCT} % target.`,
  };
}

/**
 * Time covered by the union of running intervals within [from, to), over the time observed
 * (from when monitoring began). An interval whose last heartbeat is within `liveMs` of `to`
 * belongs to a running instance and extends to `to`. Floor rounding, so 100 % is never claimed
 * for a window with any gap.
 */
export function availabilityIn(
  intervals: readonly [number, number][],
  first: number | null,
  from: number,
  to: number,
  liveMs: number,
): { upMs: number; observedMs: number } {
  if (first === null) return { upMs: 0, observedMs: 0 };
  const start = Math.max(from, first);
  const observedMs = Math.max(0, to - start);
  const clipped = intervals
    .map(([a, b]): [number, number] => [
      Math.max(a, start),
      Math.min(to, b >= to - liveMs ? to : b),
    ])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let upMs = 0;
  let curA = -Infinity;
  let curB = -Infinity;
  for (const [a, b] of clipped) {
    if (a > curB) {
      if (curB > curA) upMs += curB - curA;
      curA = a;
      curB = b;
    } else curB = Math.max(curB, b);
  }
  if (curB > curA) upMs += curB - curA;
  return { upMs, observedMs };
}

/** Registry records per validation level ("verified" is L1 or above), from the index rows. */
function verifiedCounts(rows: readonly { validation_level: string }[]) {
  const by_validation_level = { unverified: 0, L1: 0, L2: 0, L3: 0 };
  for (const r of rows)
    by_validation_level[r.validation_level as keyof typeof by_validation_level]++;
  return { verified: rows.length - by_validation_level.unverified, by_validation_level };
}
