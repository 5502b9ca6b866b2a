// The request path's counters (#16 item 5): plain arrays and reused ids on the hot path, read
// by prom-client and the metering flush exactly as before.
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/telemetry/metrics.ts';
import { Recorder } from '../../src/telemetry/recorder.ts';
import { bucketOf } from '../../src/telemetry/histogram.ts';
import { addressKey } from '../../src/lib/client-address.ts';

describe('request counts for /metrics', () => {
  it('reports every endpoint and status seen, in the order first seen, with their counts', async () => {
    const m = new Metrics();
    m.observe('/v1/registry/asset', 200);
    m.observe('/v1/registry/asset', 404);
    m.observe('/v1/registry/assets', 304);
    m.observe('/v1/registry/asset', 200);
    m.observe('/v1/registry/asset', 200);
    expect(await m.registry.getSingleMetricAsString('tai_http_requests_total')).toBe(
      [
        '# HELP tai_http_requests_total HTTP requests answered',
        '# TYPE tai_http_requests_total counter',
        'tai_http_requests_total{endpoint="/v1/registry/asset",status="200"} 3',
        'tai_http_requests_total{endpoint="/v1/registry/asset",status="404"} 1',
        'tai_http_requests_total{endpoint="/v1/registry/assets",status="304"} 1',
      ].join('\n'),
    );
    // A second scrape reports the totals again (not the difference, not twice).
    m.observe('/v1/registry/assets', 304);
    const again = await m.registry.getSingleMetricAsString('tai_http_requests_total');
    expect(again).toContain(
      'tai_http_requests_total{endpoint="/v1/registry/assets",status="304"} 2',
    );
    expect(again).toContain(
      'tai_http_requests_total{endpoint="/v1/registry/asset",status="200"} 3',
    );
  });
});

describe('recorder ids', () => {
  const entries = (r: Recorder) => ({
    usage: [
      ...(
        r.usage as unknown as { pending: Map<string, { key: object; n: number }> }
      ).pending.values(),
    ].map((e) => ({ ...e.key, n: e.n })),
    latency: [
      ...(
        r.latency as unknown as { pending: Map<string, { key: object; n: number }> }
      ).pending.values(),
    ].map((e) => ({ ...e.key, n: e.n })),
  });

  it('counts by key, day, endpoint and status class across minutes and days', () => {
    const r = new Recorder(null);
    const t = Date.UTC(2026, 10, 22, 23, 59, 30);
    r.record('/v1/a', 'k1', 0.2, 200, t);
    r.record('/v1/a', 'k1', 0.2, 204, t);
    r.record('/v1/a', 'k1', 0.2, 404, t);
    r.record('/v1/a', null, 0.2, 200, t);
    r.record('/v1/b', 'k1', 3, 304, t + 10_000);
    r.record('/v1/a', 'k1', 0.2, 200, t + 40_000); // the next day
    r.record('/v1/a', 'k2', 0.2, 500, t + 40_000);
    r.record('/v1/a', 'k1', 0.2, 200, t); // a clock stepped back
    const minute = Math.floor(t / 60_000);
    const b = bucketOf(0.2);
    const { usage, latency } = entries(r);
    expect(usage).toEqual([
      { key_id: 'k1', day: '2026-11-22', endpoint: '/v1/a', status_class: '2xx', n: 3 },
      { key_id: 'k1', day: '2026-11-22', endpoint: '/v1/a', status_class: '4xx', n: 1 },
      { key_id: 'k1', day: '2026-11-22', endpoint: '/v1/b', status_class: '3xx', n: 1 },
      { key_id: 'k1', day: '2026-11-23', endpoint: '/v1/a', status_class: '2xx', n: 1 },
      { key_id: 'k2', day: '2026-11-23', endpoint: '/v1/a', status_class: '5xx', n: 1 },
    ]);
    expect(latency).toEqual([
      { minute, endpoint: '/v1/a', bucket: b, n: 5 },
      { minute, endpoint: '/v1/b', bucket: bucketOf(3), n: 1 },
      { minute: minute + 1, endpoint: '/v1/a', bucket: b, n: 2 },
    ]);
  });

  it('counts into a fresh batch after a flush took the pending one', async () => {
    const r = new Recorder(null);
    const t = Date.UTC(2026, 10, 22, 12, 0, 0);
    r.record('/v1/a', 'k1', 0.2, 200, t);
    const taken = (r.usage as unknown as { pending: Map<string, unknown> }).pending;
    (r.usage as unknown as { pending: Map<string, unknown> }).pending = new Map();
    r.record('/v1/a', 'k1', 0.2, 200, t);
    r.record('/v1/a', 'k1', 0.2, 200, t);
    expect([...taken.values()]).toMatchObject([{ n: 1 }]);
    expect(entries(r).usage).toMatchObject([{ key_id: 'k1', n: 2 }]);
  });
});

describe('address keys (remembered)', () => {
  it('gives the same key the second time', () => {
    for (let i = 0; i < 2; i++) {
      expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
      expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
      expect(addressKey('2001:db8:0:1:2:3:4:5')).toBe('2001:db8:0:1::/64');
      expect(addressKey('not-an-ip')).toBeNull();
    }
  });
});
