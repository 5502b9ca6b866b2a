// The edge's charge lines (src/server/edge-charges.ts): what nginx's `tai_charge` log format
// writes is read back exactly, anything else (a shape or target not the edge's) is refused, a
// charge counts the quota, the usage and one access line, and the reader of a charge log
// charges each complete line once, across restarts (its durable offset) and rotations.
import { appendFileSync, existsSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  charge,
  chargeLogFile,
  parseCharge,
  startChargeReader,
  type ChargeDeps,
} from '../../src/server/edge-charges.ts';
import { edgeCounts } from '../../src/server/edge-counts.ts';
import { TierLimiter } from '../../src/access/rate-limit.ts';
import type { AccessEntry } from '../../src/server/log.ts';

const ID = '3f1c2a4e-8b7d-4c6a-9e5f-1a2b3c4d5e6f';
const REQ = '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3';
/** As nginx writes it: the log_format of the template. */
const line = (fields: Partial<Record<string, string>> = {}) => {
  const f = {
    version: '2',
    id: ID,
    tier: 'institutional',
    prefix: 'tai_live_AbC123',
    status: '200',
    method: 'GET',
    path: '/v1/registry/assets',
    req: REQ,
    ip: '127.0.0.1',
    time: '0.001',
    ...fields,
  };
  return `tai-edge-charge ${f.version} ${f.id} ${f.tier} ${f.prefix} ${f.status} ${f.method} ${f.path} ${f.req} ${f.ip} ${f.time}`;
};

describe('parseCharge', () => {
  it('reads the line the edge sends', () => {
    expect(parseCharge(line())).toEqual({
      principal: {
        kind: 'key',
        id: ID,
        tier: 'institutional',
        owner: '',
        displayPrefix: 'tai_live_AbC123',
      },
      status: 200,
      method: 'GET',
      path: '/v1/registry/assets',
      requestId: REQ,
      ip: '127.0.0.1',
      ms: 1,
    });
    expect(parseCharge(line({ method: 'HEAD', status: '304', ip: '::1' }))).toMatchObject({
      method: 'HEAD',
      status: 304,
      ip: '::1',
    });
  });

  it('refuses what is not a line of our edge', () => {
    for (const bad of [
      // The syslog format of before (with the edge token): not this format.
      line({ version: '1' }),
      `<190>Nov 27 22:27:55 tai_edge: ${line()}`,
      line({ id: 'tai_live_0123456789abcdefghijklmnopqrstuvwxyz' }),
      line({ prefix: 'tai_live_AbC123xyz' }),
      line({ path: '/v1/registry/asset' }),
      line({ method: 'POST' }),
      line({ status: '99' }),
      line({ ip: 'nowhere' }),
      line({ time: '-1' }),
      line({ req: 'x' }),
      // A charge without the key's id (nginx logs "-" for an empty variable): never a guess.
      line({ id: '-', tier: '-', prefix: '-' }),
      `${line()} extra`,
      'tai-edge-charge',
      '',
      'x'.repeat(5000),
    ])
      expect(parseCharge(bad), bad.slice(0, 120)).toBeNull();
  });
});

describe('charge', () => {
  it('counts one quota unit, the usage and one access line per line', () => {
    const limits = new TierLimiter({ institutional: { requests: 3, windowSeconds: 60 } });
    const usage: [string, string | null, number][] = [];
    const lines: AccessEntry[] = [];
    const deps = {
      limits,
      recorder: {
        record: (op: string, key: string | null, _ms: number, status: number) =>
          void usage.push([op, key, status]),
      },
      metrics: { observe: () => undefined },
      access: (e: AccessEntry) => void lines.push(e),
      log: { warn: () => undefined },
    } as unknown as ChargeDeps;
    const c = parseCharge(line())!;
    charge(c, deps);
    charge(c, deps);
    expect(usage).toEqual([
      ['/v1/registry/assets', ID, 200],
      ['/v1/registry/assets', ID, 200],
    ]);
    expect(lines.map((l) => [l.reqId, l.keyPrefix, l.status])).toEqual([
      [REQ, 'tai_live_AbC123', 200],
      [REQ, 'tai_live_AbC123', 200],
    ]);
    // Two of three spent by the charges: the third request is the last one allowed.
    expect(limits.consume(c.principal, '127.0.0.1').remaining).toBe(0);
    expect(limits.consume(c.principal, '127.0.0.1').allowed).toBe(false);
  });
});

describe('startChargeReader', () => {
  // Turns only at start and close (no timer in the test's time); settleMs: how long a renamed
  // file is kept after it stopped growing.
  const reader = (dir: string, usage: string[], settleMs = 0) =>
    startChargeReader(
      dir,
      '4321',
      {
        limits: { consume: () => ({ allowed: true }) },
        recorder: { record: (_op: string, _key: string | null, _ms: number) => undefined },
        metrics: { observe: () => undefined },
        access: (e: AccessEntry) => void usage.push(e.reqId),
        log: { error: () => undefined, warn: () => undefined },
      } as unknown as ChargeDeps,
      { intervalMs: 3_600_000, rotateBytes: 1000, settleMs },
    );
  const req = (i: number) => `0a1b2c3d-4e5f-4a6b-8c7d-${String(i).padStart(12, '0')}`;

  it('charges each complete line once, across a restart, a torn line and a rotation', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-charges-'));
    const file = chargeLogFile(dir, '4321');
    const seen: string[] = [];
    const lost = edgeCounts.lost;
    appendFileSync(file, `${line({ req: req(1) })}\n${line({ req: req(2) })}\n`);
    let r = reader(dir, seen);
    expect(seen).toEqual([req(1), req(2)]);
    expect(r.lagMs()).toBeLessThan(60_000);
    // A line nginx is still writing waits for its end; a line that is not a charge is counted.
    appendFileSync(file, `not a charge\n${line({ req: req(3) }).slice(0, 40)}`);
    await r.close();
    expect(seen).toEqual([req(1), req(2)]);
    expect(edgeCounts.lost).toBe(lost + 1);
    expect(edgeCounts.pendingBytes).toBe(40);
    // Restarted: from the saved offset, nothing charged twice.
    appendFileSync(file, `${line({ req: req(3) }).slice(40)}\n`);
    r = reader(dir, seen);
    expect(seen).toEqual([req(1), req(2), req(3)]);
    // Past rotateBytes the file is renamed and drained; the new one is read from its start.
    for (let i = 4; i < 10; i++) appendFileSync(file, `${line({ req: req(i) })}\n`);
    await r.close();
    r = reader(dir, seen, 60_000);
    await r.close();
    expect(existsSync(`${file}.old`)).toBe(true);
    r = reader(dir, seen);
    appendFileSync(`${file}.old`, `${line({ req: req(10) })}\n`); // nginx's descriptor, still open
    appendFileSync(file, `${line({ req: req(11) })}\n`);
    await r.close();
    expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => req(i + 1)));
    expect(existsSync(`${file}.old`)).toBe(false);
  });

  it('resumes a rotation whose offsets were not saved: the renamed file from its offset', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-charges-'));
    const file = chargeLogFile(dir, '4321');
    const seen: string[] = [];
    appendFileSync(file, `${line({ req: req(1) })}\n`);
    await reader(dir, seen).close();
    // Killed between the rename and saving the offsets.
    appendFileSync(file, `${line({ req: req(2) })}\n`);
    renameSync(file, `${file}.old`);
    appendFileSync(file, `${line({ req: req(3) })}\n`);
    await reader(dir, seen).close();
    expect(seen).toEqual([req(1), req(2), req(3)]);
  });
});
