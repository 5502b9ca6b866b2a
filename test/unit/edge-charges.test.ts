// The edge's charge lines (src/server/edge-charges.ts): what nginx's `tai_charge` log format
// sends is read back exactly, anything else (another token, a shape or target not the edge's)
// is refused, and a charge counts the quota, the usage and one access line.
import { describe, expect, it } from 'vitest';
import { charge, parseCharge, type ChargeDeps } from '../../src/server/edge-charges.ts';
import { TierLimiter } from '../../src/access/rate-limit.ts';
import type { AccessEntry } from '../../src/server/log.ts';

const TOKEN = 'edge-token-0123456789abcdefghijklmnopqrstu';
const ID = '3f1c2a4e-8b7d-4c6a-9e5f-1a2b3c4d5e6f';
const REQ = '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3';
/** As nginx sends it: syslog header, tag, then the log_format of the template. */
const line = (fields: Partial<Record<string, string>> = {}) => {
  const f = {
    token: TOKEN,
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
  return `<190>Nov 27 22:27:55 tai_edge: tai-edge-charge 1 ${f.token} ${f.id} ${f.tier} ${f.prefix} ${f.status} ${f.method} ${f.path} ${f.req} ${f.ip} ${f.time}`;
};

describe('parseCharge', () => {
  it('reads the line the edge sends', () => {
    expect(parseCharge(line(), TOKEN)).toEqual({
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
    expect(parseCharge(line({ method: 'HEAD', status: '304', ip: '::1' }), TOKEN)).toMatchObject({
      method: 'HEAD',
      status: 304,
      ip: '::1',
    });
  });

  it('refuses what is not a line of our edge', () => {
    for (const bad of [
      line({ token: `${TOKEN}x` }),
      line({ token: 'other' }),
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
      expect(parseCharge(bad, TOKEN), bad.slice(0, 120)).toBeNull();
  });
});

describe('charge', () => {
  it('counts one quota unit, the usage and one access line per line', () => {
    const limits = new TierLimiter({ institutional: { requests: 3, windowSeconds: 60 } });
    const usage: [string, string | null, number][] = [];
    const lines: AccessEntry[] = [];
    const deps = {
      token: TOKEN,
      limits,
      recorder: {
        record: (op: string, key: string | null, _ms: number, status: number) =>
          void usage.push([op, key, status]),
      },
      metrics: { observe: () => undefined },
      access: (e: AccessEntry) => void lines.push(e),
      log: { warn: () => undefined },
    } as unknown as ChargeDeps;
    const c = parseCharge(line(), TOKEN)!;
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
