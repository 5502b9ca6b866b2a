// /metrics in the Prometheus text format (prom-client): request counts and durations per
// endpoint, database reachability, pending metering, plus the process's default metrics.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'tai_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['endpoint', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'tai_http_request_duration_seconds',
    help: 'Time to answer HTTP requests',
    labelNames: ['endpoint'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
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

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tai_' });
  }

  // Label children are looked up once per label set, not hashed on every request.
  private readonly counters = new Map<string, { inc(): void }>();
  private readonly timers = new Map<string, { observe(v: number): void }>();

  observe(endpoint: string, status: number, seconds: number): void {
    const key = `${endpoint} ${status}`;
    let counter = this.counters.get(key);
    if (!counter)
      this.counters.set(key, (counter = this.requests.labels(endpoint, String(status))));
    counter.inc();
    let timer = this.timers.get(endpoint);
    if (!timer) this.timers.set(endpoint, (timer = this.duration.labels(endpoint)));
    timer.observe(seconds);
  }
}
