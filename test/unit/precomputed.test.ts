import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { notModified, precompute } from '../../src/representation/precomputed.ts';
import { FAST_LARGE_BYTES, compressionLevels } from '../../src/lib/compression.ts';
import { negotiateCoding } from '../../src/representation/representation.ts';

const body = JSON.stringify({
  data: Array.from({ length: 50 }, (_, i) => ({ i, name: `asset ${i}` })),
});

describe('precomputed bodies', () => {
  const p = precompute(body, 'application/json');
  it('round-trips every coding to the same bytes', () => {
    expect(gunzipSync(p.bodyFor('gzip')).toString()).toBe(body);
    expect(brotliDecompressSync(p.bodyFor('br')).toString()).toBe(body);
    expect(p.bodyFor('identity').toString()).toBe(body);
  });
  it('gives each coding its own strong ETag', () => {
    const tags = new Set([p.etagFor('identity'), p.etagFor('gzip'), p.etagFor('br')]);
    expect(tags.size).toBe(3);
    for (const t of tags) expect(t).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });
  it('matches If-None-Match weakly, in lists and across codings', () => {
    expect(notModified(p.etagFor('br'), p)).toBe(true);
    expect(notModified(`W/${p.etagFor('identity')}`, p)).toBe(true);
    expect(notModified(`"other", ${p.etagFor('gzip')}`, p)).toBe(true);
    expect(notModified('*', p)).toBe(true);
    expect(notModified('"other"', p)).toBe(false);
    expect(notModified(undefined, p)).toBe(false);
  });
  it('takes the one-tag shortcut only for an exact tag of this body', () => {
    const tag = p.etagFor('identity').slice(1, -1);
    expect(notModified(`"${tag}"`, p)).toBe(true);
    expect(notModified(`"${tag}-gz"`, p)).toBe(true);
    expect(notModified(`"${tag}-br"`, p)).toBe(true);
    for (const near of [`"${tag}-zz"`, `"${tag}x"`, `"${tag}-gzip"`, `"${tag.slice(1)}"`, `${tag}`])
      expect(notModified(near, p), near).toBe(false);
  });
  it('leaves small bodies uncompressed', () => {
    const small = precompute('{"a":1}', 'application/json');
    expect(small.codings).toEqual(['identity']);
    expect(small.bodyFor('br')).toBe(small.bodyFor('identity'));
  });
});

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, 'identity'],
    ['gzip', 'gzip'],
    ['gzip, br', 'br'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['identity;q=0, *;q=0', null],
  ])('%s → %s', (header, expected) => {
    expect(negotiateCoding(header)).toBe(expected);
  });
});

describe('large bodies computed per request', () => {
  // ~130 KB of registry-like rows: above FAST_LARGE_BYTES.
  const large = JSON.stringify({
    data: Array.from({ length: 3000 }, (_, i) => ({ tfin: `TFIN-FUND-ETH-2024-${i}`, n: i })),
  });
  it('are compressed at the cheapest levels, small ones as before', () => {
    expect(Buffer.byteLength(large)).toBeGreaterThanOrEqual(FAST_LARGE_BYTES);
    expect(compressionLevels('fast', FAST_LARGE_BYTES)).toEqual({ gzip: 1, br: 1 });
    expect(compressionLevels('fast', FAST_LARGE_BYTES - 1)).toEqual({ gzip: 4, br: 4 });
    expect(compressionLevels('max', FAST_LARGE_BYTES)).toEqual({ gzip: 9, br: 11 });
  });
  it('round-trip to the same bytes and share the ETags of the same bytes at any effort', () => {
    const fast = precompute(large, 'application/json', { effort: 'fast', eager: false });
    const max = precompute(large, 'application/json');
    expect(gunzipSync(fast.bodyFor('gzip')).toString()).toBe(large);
    expect(brotliDecompressSync(fast.bodyFor('br')).toString()).toBe(large);
    expect(fast.bodyFor('identity').toString()).toBe(large);
    for (const c of ['identity', 'gzip', 'br'] as const)
      expect(fast.etagFor(c)).toBe(max.etagFor(c));
    const other = precompute(large.replace('"n":7', '"n":8'), 'application/json', {
      effort: 'fast',
    });
    expect(other.etagFor('identity')).not.toBe(fast.etagFor('identity'));
  });
});
