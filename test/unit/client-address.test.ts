// Issue #14 item 15: limit keys are IP addresses (IPv6 by /64), and limiter memory is bounded.
import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from '../../src/access/rate-limit.ts';
import { addressKey, isLoopback } from '../../src/lib/client-address.ts';

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
  it('refuses anything that is not an IP address', () => {
    for (const v of ['not-an-ip-1', '', '1.2.3', '999.1.1.1', 'x'.repeat(8000), undefined])
      expect(addressKey(v), String(v).slice(0, 20)).toBe(null);
  });
  it('knows loopback', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('127.1.2.3')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('203.0.113.9')).toBe(false);
  });
});

describe('FixedWindowCounter memory', () => {
  it('holds at most maxSubjects windows however many subjects arrive', () => {
    const counter = new FixedWindowCounter(3600, () => 0, 100);
    for (let i = 0; i < 10_000; i++) counter.add(`subject-${i}`);
    // At the bound the oldest eighth goes at once (BoundedMap): between 88 and 100 are held.
    expect(counter.size).toBeLessThanOrEqual(100);
    expect(counter.size).toBeGreaterThan(100 - 100 / 8);
    // The newest subjects are the ones kept.
    expect(counter.peek('subject-9999')?.count).toBe(1);
    expect(counter.peek('subject-0')).toBe(null);
  });
});
