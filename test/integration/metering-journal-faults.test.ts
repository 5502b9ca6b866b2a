// Issue #25 item 1: the metering journal is a file on local disk, so a start must survive what
// a disk, an editor or a bug can leave in it. Real segments are written into a real server's
// DATA_DIR before it starts: malformed lines, impossible values and an unreadable segment next
// to valid ones. The server starts, replays the valid counts, moves the rest aside (named in the
// log, counted in a metric) and bills new requests as usual.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ASSET = '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001';
/** Above pid_max: a writer that is gone. */
const GONE = 2 ** 22 + 4_321;
/* eslint-disable @typescript-eslint/no-explicit-any */

async function usageRows(env: Record<string, string>, keyId: string): Promise<any[]> {
  const out = await keysTool(env, 'usage', '--key', keyId, '--json');
  return JSON.parse(out.stdout.slice(out.stdout.indexOf('[')));
}

describe('metering journal with damaged segments (issue #25 item 1)', () => {
  it('starts, replays the valid counts, quarantines the rest and bills new requests', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-test-'));
    // The key exists before the damaged journal does (a first server creates the database).
    const first = await startServer({ DATA_DIR: dataDir });
    const out = await keysTool(
      first.env,
      'create',
      '--tier',
      'enterprise',
      '--owner',
      'J',
      '--json',
    );
    const key = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as {
      key: string;
      id: string;
    };
    expect(await first.stop()).toBe(0);

    const dir = path.join(dataDir, 'metering');
    mkdirSync(dir, { recursive: true });
    const seg = (tag: string) => path.join(dir, `usage-${GONE}-${tag.padEnd(36, '0')}.jsonl`);
    const usage = (over: Record<string, unknown> = {}) =>
      JSON.stringify({
        key_id: key.id,
        day: '2026-03-02',
        endpoint: '/v1/registry/asset',
        status_class: '2xx',
        ...over,
      });
    // One segment: valid lines around the shapes the attack run replayed into the database.
    writeFileSync(
      seg('aaaa'),
      [
        `{"d":[[${usage()},3]]}`,
        `{"d":"a string where the entries belong"}`,
        `{"d":[[{},1]]}`,
        `{"d":[[${usage()},-5]]}`,
        `{"d":[[${usage()},"12"]]}`,
        `{"d":[[${usage()},1e300]]}`,
        `{"d":[[${usage()},12.5]]}`,
        `{"d":[[${usage({ status_class: '9xx' })},1]]}`,
        `{"d":[[${usage({ unknown: 'x' })},1]]}`,
        `{"d":[[${usage()},4]]}`,
        '',
      ].join('\n'),
    );
    // An unreadable segment (without read permission; root reads anything, so there a directory
    // stands where the file belongs) next to a valid one.
    if (process.getuid?.() === 0) mkdirSync(seg('bbbb'));
    else {
      writeFileSync(seg('bbbb'), `{"d":[[${usage()},100]]}\n`);
      chmodSync(seg('bbbb'), 0o000);
    }
    writeFileSync(seg('cccc'), `{"d":[[${usage({ day: '2026-03-03' })},6]]}\n`);

    const s = await startServer({ DATA_DIR: dataDir, FLUSH_MS: '200' });
    servers.push(s);
    for (let i = 0; i < 20; i++) {
      const res = await raw(`${s.url}${ASSET}`, { noKey: true, headers: { 'x-api-key': key.key } });
      expect(res.status).toBe(200);
    }
    const billedOn = async (day: string) =>
      (await usageRows(s.env, key.id))
        .filter((r) => r.day === day && r.billable)
        .reduce((n, r) => n + r.requests, 0);
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 50 && (await billedOn(today)) < 20; i++) await sleep(100);
    expect(await billedOn(today)).toBe(20);
    expect(await billedOn('2026-03-02')).toBe(7);
    expect(await billedOn('2026-03-03')).toBe(6);

    const rows = await usageRows(s.env, key.id);
    expect(rows.every((r) => Number.isSafeInteger(r.requests) && r.requests > 0)).toBe(true);
    expect(rows.filter((r) => !['2xx', '3xx', '4xx', '5xx'].includes(r.status_class))).toEqual([]);

    const ready = await raw(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = (await raw(`${s.url}/metrics`)).body.toString();
    expect(metrics).toMatch(/tai_metering_journal_quarantined_total\{what="line"\} 8/);
    expect(metrics).toMatch(/tai_metering_journal_quarantined_total\{what="segment"\} 1/);
    for (let i = 0; i < 30 && !s.output().includes('moved aside'); i++) await sleep(100);
    const warned = s
      .output()
      .split('\n')
      .filter((l) => l.includes('moved aside'))
      .map((l) => JSON.parse(l));
    expect(warned.filter((w) => w.file === seg('aaaa')).map((w) => w.line)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(warned.some((w) => w.file === seg('bbbb') && w.line === undefined)).toBe(true);
    const moved = readdirSync(path.join(dir, 'quarantine'));
    expect(moved).toContain(path.basename(seg('aaaa')) + '.bad-lines');
    expect(moved).toContain(path.basename(seg('bbbb')));
  });
});
