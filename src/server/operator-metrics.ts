// Metrics an operator alerts on (docs/production.md "Running in production"), next to the request counters
// of telemetry/metrics.ts: request latency per operation as a Prometheus histogram, every problem
// answer by status and code (401s and 429s by reason, errors by code), and the quota counters'
// backend (Redis up, or the per-instance fallback).
//
// The hot path only adds to plain arrays (a prom-client histogram with labels cost 3.5 % of the
// lookup path's CPU); prom-client reads them when Prometheus scrapes.
import type { Registry } from 'prom-client';
import { quotaBackendHealth, quotaCounters } from '../access/quotas.ts';
import { edgeCounts } from './edge-counts.ts';
import { signingCounts } from '../representation/response-signer.ts';

/** Upper bounds (seconds): from a cached lookup (~0.2 ms) to a stalled answer. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
] as const;

interface Series {
  buckets: number[];
  sum: number;
  count: number;
}

const latency = new Map<string, Series>();
/** Problem answers by code and status, and the same entries in the order first seen. */
const problemsByCode = new Map<string, Map<number, { status: string; code: string; n: number }>>();
const problems: { status: string; code: string; n: number }[] = [];
// The problem code of a response lives beside the writer that notes it; edge-auth.ts and the
// on-close step read and note it through here.
export { noteProblem, problemCodeOf } from '../representation/problem-note.ts';

/** One answered request: its operation (null outside /v1), duration, status and problem code. */
export function recordRequest(
  operation: string | null,
  seconds: number,
  status: number,
  code: string | undefined,
): void {
  if (operation !== null) {
    let s = latency.get(operation);
    if (!s)
      latency.set(operation, (s = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) s.buckets[i]!++;
    s.sum += seconds;
    s.count++;
  }
  if (code !== undefined) {
    let byStatus = problemsByCode.get(code);
    if (byStatus === undefined) problemsByCode.set(code, (byStatus = new Map()));
    const p = byStatus.get(status);
    if (p) p.n++;
    else {
      const entry = { status: String(status), code, n: 1 };
      byStatus.set(status, entry);
      problems.push(entry);
    }
  }
}

type Value = { value: number; labels: Record<string, string>; metricName?: string };

/** A metric read from the state above at scrape time (prom-client's custom metric shape). */
function custom(name: string, help: string, type: string, values: () => Value[]) {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => ({ name, help, type, values: values(), aggregator: 'sum' }),
    reset: () => undefined,
  };
}

/** The metric names this module adds (the dashboard test checks the dashboard against them). */
export const OPERATOR_METRICS = [
  'tai_http_request_duration_seconds',
  'tai_http_problems_total',
  'tai_quota_backend_up',
  'tai_quota_backend_info',
  'tai_quota_fallback_decisions_total',
  'tai_redis_errors_total',
  'tai_edge_decisions_total',
  'tai_edge_charges_total',
] as const;

/** Latency and problem answers, per operation. */
function httpMetrics() {
  return [
    custom(
      'tai_http_request_duration_seconds',
      'Time from the request to the end of the response, per operation',
      'histogram',
      () =>
        [...latency].flatMap(([operation, s]) => {
          let cumulative = 0;
          const name = 'tai_http_request_duration_seconds';
          return [
            ...LATENCY_BUCKETS.map((le, i) => ({
              metricName: `${name}_bucket`,
              labels: { operation, le: String(le) },
              value: (cumulative += s.buckets[i]!),
            })),
            { metricName: `${name}_bucket`, labels: { operation, le: '+Inf' }, value: s.count },
            { metricName: `${name}_sum`, labels: { operation }, value: s.sum },
            { metricName: `${name}_count`, labels: { operation }, value: s.count },
          ];
        }),
    ),
    custom(
      'tai_http_problems_total',
      'Problem answers by status and code (401 and 429 by reason, errors by code)',
      'counter',
      () =>
        problems.map((p) => ({
          labels: { status: p.status, code: p.code },
          value: p.n,
        })),
    ),
  ];
}

/** Where quotas are counted and how each decision was taken. */
function quotaMetrics() {
  return [
    custom(
      'tai_quota_backend_up',
      '1 when quotas are counted where configured (memory, or Redis); 0 while Redis is unreachable and each instance counts its fallback share',
      'gauge',
      () => [{ labels: {}, value: quotaBackendHealth().status === 'ok' ? 1 : 0 }],
    ),
    custom('tai_quota_backend_info', 'Where quotas are counted (value 1)', 'gauge', () => [
      { labels: { backend: quotaBackendHealth().backend }, value: 1 },
    ]),
    custom(
      'tai_quota_fallback_decisions_total',
      'Quota decisions taken in this instance because Redis was unreachable',
      'counter',
      () => [{ labels: {}, value: quotaCounters().fallbackDecisions }],
    ),
    custom(
      'tai_quota_redis_decisions_total',
      'Quota decisions that waited for a Redis round trip (a new lease)',
      'counter',
      () => [{ labels: {}, value: quotaCounters().redisDecisions }],
    ),
    custom(
      'tai_quota_lease_decisions_total',
      'Quota decisions taken from a lease of Redis tokens held in this instance (no round trip)',
      'counter',
      () => [{ labels: {}, value: quotaCounters().leaseDecisions }],
    ),
    custom(
      'tai_quota_lease_tokens_held',
      'Quota tokens leased from Redis and not yet spent by this instance',
      'gauge',
      () => [{ labels: {}, value: quotaCounters().leaseTokensHeld }],
    ),
  ];
}

/** The edge's decisions and charges, and the signatures withheld. */
function edgeMetrics() {
  return [
    custom(
      'tai_edge_decisions_total',
      'Decisions the edge asked this instance for, by whether the edge may reuse them',
      'counter',
      () => [
        { labels: { reusable: 'yes' }, value: edgeCounts.reusable },
        { labels: { reusable: 'no' }, value: edgeCounts.decisions - edgeCounts.reusable },
      ],
    ),
    custom(
      'tai_edge_charges_total',
      'Requests the edge answered from a reused decision, read from this instance’s charge log: charged, or lost (a line that is not a charge)',
      'counter',
      () => [
        { labels: { result: 'charged' }, value: edgeCounts.charged },
        { labels: { result: 'lost' }, value: edgeCounts.lost },
      ],
    ),
    custom(
      'tai_signatures_withheld_total',
      'Bodies made for one response (problems) sent unsigned: the second’s signing budget was spent',
      'counter',
      () => [{ labels: {}, value: signingCounts.withheld }],
    ),
    custom(
      'tai_edge_charges_pending_bytes',
      'Bytes the edge wrote to this instance’s charge log that are not charged yet (sent = charged + lost + pending)',
      'gauge',
      () => [{ labels: {}, value: edgeCounts.pendingBytes }],
    ),
    custom(
      'tai_edge_charges_unquota_total',
      'Edge charges billed but not counted against the quota (the quota backend failed)',
      'counter',
      () => [{ labels: {}, value: edgeCounts.unquota }],
    ),
    custom(
      'tai_edge_decisions_held_back_total',
      'Decisions not marked reusable because this instance’s charge reader was behind',
      'counter',
      () => [{ labels: {}, value: edgeCounts.heldBack }],
    ),
  ];
}

export function registerOperatorMetrics(registry: Registry): void {
  const metrics = [
    ...httpMetrics(),
    ...quotaMetrics(),
    ...edgeMetrics(),
    custom('tai_redis_errors_total', 'Redis commands that failed or timed out', 'counter', () => [
      { labels: {}, value: quotaCounters().redisErrors },
    ]),
  ];
  for (const m of metrics)
    if (!registry.getSingleMetric(m.name))
      registry.registerMetric(m as unknown as Parameters<Registry['registerMetric']>[0]);
}
