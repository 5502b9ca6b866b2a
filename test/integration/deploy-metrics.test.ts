// Metrics an operator alerts on (docs/production.md "Running in production"): latency histograms per
// operation, problems by status and code (401s and 429s by reason), the quota backend; the
// access log carries the problem code; and every metric the dashboard (deploy/grafana) queries
// exists on /metrics.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startServer, type TestServer } from '../helpers/server.ts';
import { LATENCY_BUCKETS } from '../../src/server/operator-metrics.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_DEMO: '3/60' });
});
afterAll(() => s?.stop());

const metrics = async () => (await raw(`${s.url}/metrics`)).body.toString();
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('operator metrics', () => {
  it('count latency per operation, problems by code, and the quota backend', async () => {
    const get = (target: string, headers: Record<string, string> = {}, noKey = false) =>
      raw(`${s.url}${target}`, { headers, noKey });
    const statuses = [
      (await get('/v1/registry/assets')).status,
      (await get('/v1/market/stablecoins')).status,
      (await get('/v1/market/stablecoins', {}, true)).status,
      (await get('/v1/market/stablecoins', { 'x-api-key': 'tai_live_wrong' }, true)).status,
      (await get('/v1/nothing')).status,
      (await get('/v1/registry/assets')).status,
      (await get('/v1/registry/assets')).status,
    ];
    expect(statuses).toEqual([200, 200, 401, 401, 404, 200, 429]);
    const text = await metrics();
    expect(text).toMatch(/^# TYPE tai_http_request_duration_seconds histogram$/m);
    const op = 'operation="/v1/registry/assets"';
    const buckets = LATENCY_BUCKETS.map((le) =>
      value(text, `tai_http_request_duration_seconds_bucket{${op},le="${le}"}`),
    );
    // Cumulative, ending at the count.
    expect(buckets.every((b, i) => b !== undefined && (i === 0 || b >= buckets[i - 1]!))).toBe(
      true,
    );
    expect(value(text, `tai_http_request_duration_seconds_bucket{${op},le="+Inf"}`)).toBe(3);
    expect(value(text, `tai_http_request_duration_seconds_count{${op}}`)).toBe(3);
    expect(value(text, `tai_http_request_duration_seconds_sum{${op}}`)).toBeGreaterThan(0);
    const problem = (status: number, code: string) =>
      value(text, `tai_http_problems_total{status="${status}",code="${code}"}`);
    expect(problem(401, 'missing_api_key')).toBe(1);
    expect(problem(401, 'invalid_api_key')).toBe(1);
    expect(problem(404, 'not_found')).toBe(1);
    expect(problem(429, 'rate_limited')).toBe(1);
    expect(value(text, 'tai_quota_backend_up')).toBe(1);
    expect(value(text, 'tai_quota_backend_info{backend="memory"}')).toBe(1);
    expect(
      (JSON.parse((await raw(`${s.url}/readyz`)).body.toString()) as { quotas: unknown }).quotas,
    ).toEqual({
      backend: 'memory',
      status: 'ok',
    });

    // The access line of a refusal names its code; a success has none.
    for (let i = 0; i < 50 && !/"code":"rate_limited"/.test(s.output()); i++)
      await new Promise((r) => setTimeout(r, 100));
    const lines = s
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as { status: number; code?: string });
    expect(lines.filter((l) => l.status === 429).map((l) => l.code)).toEqual(['rate_limited']);
    expect(
      lines
        .filter((l) => l.status === 401)
        .map((l) => l.code)
        .sort(),
    ).toEqual(['invalid_api_key', 'missing_api_key']);
    expect(lines.filter((l) => l.status === 200).every((l) => l.code === undefined)).toBe(true);
  });

  it('the dashboard queries only metrics that /metrics exposes', async () => {
    const dashboard = JSON.parse(readFileSync('deploy/grafana/tai-dashboard.json', 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const names = new Set(
      exprs.flatMap((e) => [...e.matchAll(/\btai_[a-z0-9_]+/g)].map((m) => m[0])),
    );
    expect(names.size).toBeGreaterThan(10);
    const text = await metrics();
    const declared = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => m[1]!));
    const missing = [...names].filter(
      (n) => !declared.has(n) && !declared.has(n.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(missing).toEqual([]);
  });
});
