// The fixed windows behind quotas and the failed-attempt block, on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { FailedAuthLimiter, FixedWindowCounter, TierLimiter } from '../../src/access/rate-limit.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('FixedWindowCounter', () => {
  it('counts per subject within a window that starts at the first request', () => {
    const c = clock();
    const w = new FixedWindowCounter(60, c.now);
    expect(w.add('a')).toEqual({ count: 1, msLeft: 60_000 });
    c.advance(10_000);
    expect(w.add('a')).toEqual({ count: 2, msLeft: 50_000 });
    expect(w.add('b')).toEqual({ count: 1, msLeft: 60_000 });
    c.advance(50_000);
    expect(w.add('a')).toEqual({ count: 1, msLeft: 60_000 });
    expect(w.peek('b')).toEqual({ count: 1, msLeft: 10_000 });
  });

  it('drops expired windows, so memory follows the active subjects', () => {
    const c = clock();
    const w = new FixedWindowCounter(1, c.now);
    for (let i = 0; i < 1000; i++) w.add(`ip-${i}`);
    expect(w.size).toBe(1000);
    c.advance(1_000);
    w.add('late');
    expect(w.size).toBe(1);
    expect(w.peek('ip-1')).toBeNull();
  });
});

describe('TierLimiter', () => {
  const quotas = {
    demo: { requests: 2, windowSeconds: 60 },
    institutional: { requests: 3, windowSeconds: 10 },
  };

  it('limits DEMO_KEY per address and keys per key, with the RateLimit fields', () => {
    const c = clock();
    const limiter = new TierLimiter(quotas, c.now);
    const demo = { kind: 'demo' } as const;
    const first = limiter.consume(demo, '198.51.100.1');
    expect(first.allowed).toBe(true);
    expect(first.headers).toEqual({
      'RateLimit-Policy': '"demo";q=2;w=60',
      RateLimit: '"demo";r=1;t=60',
    });
    c.advance(30_500);
    expect(limiter.consume(demo, '198.51.100.1').headers.RateLimit).toBe('"demo";r=0;t=30');
    const refused = limiter.consume(demo, '198.51.100.1');
    expect(refused.allowed).toBe(false);
    expect(refused.headers['Retry-After']).toBe('30');
    expect(limiter.consume(demo, '198.51.100.2').allowed).toBe(true);
    const key = {
      kind: 'key',
      id: 'k1',
      tier: 'institutional',
      owner: 'o',
      displayPrefix: 'p',
    } as const;
    for (let i = 0; i < 3; i++) expect(limiter.consume(key, '198.51.100.1').allowed).toBe(true);
    expect(limiter.consume(key, '203.0.113.9').allowed).toBe(false);
    c.advance(10_000);
    expect(limiter.consume(key, '198.51.100.1').remaining).toBe(2);
  });

  it('refuses a tier without a quota', () => {
    const limiter = new TierLimiter(quotas);
    const key = { kind: 'key', id: 'k', tier: 'gold', owner: 'o', displayPrefix: 'p' } as const;
    expect(() => limiter.consume(key, '198.51.100.1')).toThrow(/no quota configured for tier gold/);
  });
});

describe('FailedAuthLimiter', () => {
  it('blocks an address past the quota until its window ends', () => {
    const c = clock();
    const limiter = new FailedAuthLimiter({ requests: 2, windowSeconds: 300 }, c.now);
    limiter.fail('198.51.100.7');
    limiter.fail('198.51.100.7');
    expect(limiter.blocked('198.51.100.7')).toBeNull();
    limiter.fail('198.51.100.7');
    c.advance(100_000);
    expect(limiter.blocked('198.51.100.7')).toBe(200);
    expect(limiter.blocked('198.51.100.8')).toBeNull();
    c.advance(200_000);
    expect(limiter.blocked('198.51.100.7')).toBeNull();
  });
});
