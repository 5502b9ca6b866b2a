import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { notModified, precompute } from '../../src/server/precomputed.ts';
import { negotiateCoding } from '../../src/server/respond.ts';

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
