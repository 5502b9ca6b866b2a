import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/server/request-target.ts';

describe('request target normalisation', () => {
  it('collapses repeated and trailing slashes', () => {
    expect(parseTarget('//v1//registry/assets/?q=1')).toEqual({
      ok: true,
      path: '/v1/registry/assets',
      search: '?q=1',
      rawQuery: 'q=1',
    });
  });
  it('decodes unreserved percent-encoding once', () => {
    expect(parseTarget('/v1/registry/%61ssets')).toMatchObject({
      ok: true,
      path: '/v1/registry/assets',
    });
  });
  it.each([
    ['/v1/../etc/passwd', 'dot segments'],
    ['/v1/%2e%2e/x', 'dot segments'],
    ['/v1/registry%2fassets', 'encoded slash'],
    ['/v1\\registry', 'backslash'],
    ['/v1/%252e%252e/x', 'percent-encoded twice'],
    ['/v1/%00', 'control characters'],
    ['/v1/%E0%A4%A', 'invalid percent-encoding'],
    ['http://evil.example/v1', 'must be a path'],
  ])('refuses %s', (raw, reason) => {
    const t = parseTarget(raw);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toContain(reason);
  });
});
