// /metrics in the Prometheus text format (prom-client): request counts per endpoint and status,
// database reachability, pending metering, the operator facts kept off the public status (active
// keys, traffic over every instance, instances alive, the database driver), plus the process's
// default metrics. Latency
// percentiles are in /v1/system/status, from the mergeable histograms of every instance (a second,
// per-request prom-client histogram cost 3.5 % of the CPU on the hot path).
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface OperatorFacts {
  activeKeys: number;
  requests24h: number;
  instances: number;
}

export class Metrics {
  readonly registry = new Registry();
  /**
   * Requests per endpoint and status. The hot path adds to plain arrays (`observe`): a
   * prom-client child's `inc` hashes and validates its labels on every call. The counter is
   * filled from them when Prometheus scrapes, series in the order they were first seen.
   */
  private readonly counts = new Map<string, Float64Array>();
  private readonly seen: { endpoint: string; status: number }[] = [];
  readonly requests = new Counter({
    name: 'tai_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['endpoint', 'status'] as const,
    registers: [this.registry],
    collect: () => {
      const requests = this.requests;
      requests.reset();
      for (const { endpoint, status } of this.seen)
        requests.inc({ endpoint, status: String(status) }, this.counts.get(endpoint)![status]!);
    },
  });
  readonly databaseUp = new Gauge({
    name: 'tai_database_up',
    help: '1 when the last database operation succeeded',
    registers: [this.registry],
  });
  readonly pendingUsage = new Gauge({
    name: 'tai_metering_pending_entries',
    help: 'Usage counts waiting to be written to the database',
    registers: [this.registry],
  });
  readonly flushFailures = new Counter({
    name: 'tai_flush_failures_total',
    help: 'Failed writes of usage, latency or heartbeats',
    registers: [this.registry],
  });
  readonly journalErrors = new Counter({
    name: 'tai_metering_journal_errors_total',
    help: 'Failed writes of the local metering journal (counts then live in memory only until flushed)',
    registers: [this.registry],
  });
  readonly journalQuarantined = new Counter({
    name: 'tai_metering_journal_quarantined_total',
    help: 'Journal segments (what="segment"), lines (what="line") or counts past the replay bound (what="over_bound") that failed their check at replay and were moved aside, not billed',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });
  readonly journalOverBound = new Counter({
    name: 'tai_metering_journal_over_bound_total',
    help: "Requests a replayed journal segment claimed for a key and day beyond what the instance could have answered over the segment's own time span (200,000 per second): held back in quarantine, not billed",
    registers: [this.registry],
  });
  readonly carriedOver = new Counter({
    name: 'tai_metering_carried_over_total',
    help: 'Requests counted by a previous process, replayed from the local journal',
    registers: [this.registry],
  });

  constructor(driver: 'sqlite' | 'postgres' = 'sqlite', facts?: () => Promise<OperatorFacts>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'tai_' });
    new Gauge({
      name: 'tai_database_info',
      help: 'The service database driver (value 1)',
      labelNames: ['driver'] as const,
      registers: [this.registry],
    }).set({ driver }, 1);
    if (!facts) return;
    // Read from the database when scraped (one read shared by the three gauges); left unset
    // when the database cannot answer.
    let read: Promise<OperatorFacts | null> | null = null;
    const once = () =>
      (read ??= facts()
        .catch(() => null)
        .finally(() => setTimeout(() => (read = null), 0)));
    const gauge = (name: string, help: string, pick: (f: OperatorFacts) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const f = await once();
          if (f) this.set(pick(f));
          else this.reset();
        },
      });
    gauge('tai_active_keys', 'API keys not revoked', (f) => f.activeKeys);
    gauge(
      'tai_requests_24h',
      'Requests answered over the last 24 h, every instance',
      (f) => f.requests24h,
    );
    gauge('tai_instances_alive', 'Instances with a recent heartbeat', (f) => f.instances);
  }

  observe(endpoint: string, status: number): void {
    let row = this.counts.get(endpoint);
    if (row === undefined) this.counts.set(endpoint, (row = new Float64Array(1000)));
    // Node's status codes are 100–999.
    const n = row[status]!;
    row[status] = n + 1;
    if (n === 0) this.seen.push({ endpoint, status });
  }
}
