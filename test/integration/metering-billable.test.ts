// Usage counts what a subscription is billed for (issue #14 item 4): 2xx answers only. 304s,
// refusals (429, 400, 404) and failures are kept per status class, so operators still see them,
// but are not billable (docs/production.md "Metering guarantees").
import { afterAll, describe, expect, it } from 'vitest';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
/* eslint-disable @typescript-eslint/no-explicit-any */

describe('billable usage', () => {
  it('bills 2xx answers only and keeps refusals per status class', async () => {
    const s = await startServer({ RATE_LIMIT_INSTITUTIONAL: '6/60' });
    servers.push(s);
    const created = await keysTool(
      s.env,
      'create',
      '--tier',
      'institutional',
      '--owner',
      'Bill',
      '--json',
    );
    const key = JSON.parse(created.stdout.slice(created.stdout.indexOf('{')));
    const get = (path: string, headers: Record<string, string> = {}) =>
      raw(`${s.url}${path}`, { noKey: true, headers: { 'x-api-key': key.key, ...headers } });
    const statuses: number[] = [];
    let etag = '';
    for (let i = 0; i < 3; i++) {
      const res = await get('/v1/registry/assets');
      etag = String(res.headers.etag);
      statuses.push(res.status);
    }
    statuses.push((await get('/v1/registry/assets', { 'if-none-match': etag })).status);
    statuses.push((await get('/v1/registry/asset?tfin=not-a-tfin')).status);
    statuses.push((await get('/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-9999')).status);
    for (let i = 0; i < 3; i++) statuses.push((await get('/v1/registry/assets')).status);
    expect(statuses).toEqual([200, 200, 200, 304, 400, 404, 429, 429, 429]);

    expect(await s.stop()).toBe(0); // flushes
    const out = await keysTool(s.env, 'usage', '--key', key.id, '--json');
    const rows = JSON.parse(out.stdout.slice(out.stdout.indexOf('['))) as any[];
    const byClass = (cls: string) =>
      rows.filter((r) => r.status_class === cls).reduce((n, r) => n + r.requests, 0);
    expect(byClass('2xx')).toBe(3);
    expect(byClass('3xx')).toBe(1);
    expect(byClass('4xx')).toBe(5);
    expect(rows.filter((r) => r.billable).reduce((n, r) => n + r.requests, 0)).toBe(3);
  });
});
