// What the public status shows (issue #14 item 13): service health, availability as users
// experienced it (the union of every instance's running intervals, not one process's uptime),
// latency and the data's freshness. Operator facts (keys, traffic, instances, database driver)
// are on /metrics only.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { sqliteDir } from '../helpers/databases.ts';
import { expectSchema } from '../helpers/schemas.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
/* eslint-disable @typescript-eslint/no-explicit-any */

describe('public status and operator metrics', () => {
  it('a restart after a long outage reads degraded, not "ok" beside 2 %; a full window reads ok', async () => {
    const dir = sqliteDir();
    const store = await openStore({ DATA_DIR: dir });
    const now = Date.now();
    const min = 60_000;
    // Up for the first 2 minutes of a 100-minute window, then down until this restart.
    await store.heartbeat(
      { id: 'a', startedAt: now - 100 * min, host: 'h', pid: 1 },
      now - 100 * min,
      now - 98 * min,
    );
    await store.db.close();
    const s = await startServer({ DATA_DIR: dir, STATUS_CACHE_MS: '0' });
    servers.push(s);
    const body = JSON.parse((await raw(`${s.url}/v1/system/status`)).body.toString()) as any;
    expectSchema('v1/system-status.schema.json', body);
    const day = body.data.uptime.windows['24h'];
    expect(day.availability_pct).toBeLessThan(3);
    expect(body.data.status).toBe('degraded');
    expect(body.data.status_reason).toMatch(
      /^Availability 2(\.\d+)? % over the last 24 h observed \(2 of 100 minutes up\), below the 99\.99 % target\.$/,
    );

    // A fresh service, up since monitoring began: ok, and the reason says why.
    const fresh = await startServer({ STATUS_CACHE_MS: '0' });
    servers.push(fresh);
    const ok = JSON.parse((await raw(`${fresh.url}/v1/system/status`)).body.toString()) as any;
    expect(ok.data.status).toBe('ok');
    expect(ok.data.status_reason).toMatch(
      /at or above the 99\.99 % target\.$|less than a minute observed/,
    );
  });

  it('reports availability as the union of instances and keeps operator facts off the public body', async () => {
    const dir = sqliteDir();
    const store = await openStore({ DATA_DIR: dir });
    const now = Date.now();
    const min = 60_000;
    // Two earlier instances: overlapping runs from -60 to -20 minutes, then nobody until now.
    await store.heartbeat(
      { id: 'a', startedAt: now - 60 * min, host: 'h', pid: 1 },
      now - 60 * min,
      now - 30 * min,
    );
    await store.heartbeat(
      { id: 'b', startedAt: now - 40 * min, host: 'h', pid: 2 },
      now - 40 * min,
      now - 20 * min,
    );
    await store.db.close();

    const s = await startServer({ DATA_DIR: dir, STATUS_CACHE_MS: '0' });
    servers.push(s);
    await keysTool(s.env, 'create', '--tier', 'institutional', '--owner', 'Status', '--json');
    const res = await raw(`${s.url}/v1/system/status`);
    const body = JSON.parse(res.body.toString()) as any;
    expectSchema('v1/system-status.schema.json', body);
    // Up 40 of the 60 minutes observed (the union; summing runs per instance would say 50).
    const day = body.data.uptime.windows['24h'];
    expect(day.minutes_observed).toBe(60);
    expect(day.minutes_up).toBe(40);
    expect(day.availability_pct).toBeGreaterThan(66.6);
    expect(day.availability_pct).toBeLessThan(67.5);
    // The overall state reflects the window it shows: not "ok" beside 66 %.
    expect(body.data.status).toBe('degraded');
    expect(body.data.status_reason).toBe(
      `Availability ${day.availability_pct} % over the last 24 h observed (40 of 60 minutes up), below the 99.99 % target.`,
    );
    const text = res.body.toString();
    for (const operatorFact of [
      'active_keys',
      'requests_24h',
      'instances_alive',
      'driver',
      'process_seconds',
    ])
      expect(text).not.toContain(operatorFact);

    const metrics = (await raw(`${s.url}/metrics`)).body.toString();
    expect(metrics).toMatch(/^tai_active_keys 1$/m);
    expect(metrics).toMatch(/^tai_instances_alive 1$/m);
    expect(metrics).toMatch(/^tai_requests_24h \d+$/m);
    expect(metrics).toContain('tai_database_info{driver="sqlite"} 1');
  });
});
