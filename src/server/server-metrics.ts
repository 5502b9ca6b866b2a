// Process-level counters for /metrics that live outside the request path: connections (open,
// refused by a cap, closed by the send timeout) and log lines (written, dropped). Read when
// Prometheus scrapes, so nothing is counted twice on the hot path.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ConnectionStats } from './connections.ts';
import type { LogWriterStats } from './log-writer.ts';

export function registerServerMetrics(
  registry: Registry,
  connections: () => ConnectionStats,
  logs: () => LogWriterStats,
): void {
  const seen = new Map<string, number>();
  /** A counter that reports a running total kept elsewhere. */
  const total = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const delta = read() - (seen.get(name) ?? 0);
        if (delta > 0) this.inc(delta);
        seen.set(name, read());
      },
    });
  new Gauge({
    name: 'tai_connections_open',
    help: 'Client sockets open',
    registers: [registry],
    collect() {
      this.set(connections().open);
    },
  });
  total(
    'tai_connections_refused_total',
    'Connections refused by MAX_CONNECTIONS or MAX_CONNECTIONS_PER_ADDRESS',
    () => connections().refused,
  );
  total(
    'tai_connections_timed_out_total',
    'Sockets closed after SEND_TIMEOUT_MS without progress',
    () => connections().timedOut,
  );
  total(
    'tai_log_lines_dropped_total',
    'Log lines dropped: the log queue was full or the destination failed',
    () => logs().dropped,
  );
  total('tai_log_write_errors_total', 'Failed writes to the log destination', () => logs().errors);
  new Gauge({
    name: 'tai_log_queued_bytes',
    help: 'Log bytes waiting for the destination',
    registers: [registry],
    collect() {
      this.set(logs().queuedBytes);
    },
  });
}
