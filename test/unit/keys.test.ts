import { describe, expect, it } from 'vitest';
import {
  KEY_PATTERN,
  checksum,
  generateKey,
  hashKey,
  presentedKey,
  sameHash,
  wellFormed,
} from '../../src/access/keys.ts';

describe('API keys', () => {
  it('have a typed prefix, a checksum, and are stored only as a SHA-256 digest', () => {
    const k = generateKey('live');
    expect(k.key).toMatch(KEY_PATTERN);
    expect(k.key.startsWith('tai_live_')).toBe(true);
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.hash).toBe(hashKey(k.key));
    expect(k.hash).not.toContain(k.key.slice(9, 20));
    expect(k.displayPrefix).toBe(k.key.slice(0, 15));
    expect(wellFormed(k.key)).toBe(true);
  });

  it('reject every single-character typo by checksum, before any lookup', () => {
    const k = generateKey('test').key;
    for (let i = 9; i < k.length; i++) {
      const ch = k[i] === 'a' ? 'b' : 'a';
      expect(wellFormed(k.slice(0, i) + ch + k.slice(i + 1)), `typo at ${i}`).toBe(false);
    }
    expect(wellFormed(k.slice(0, -1))).toBe(false);
    expect(wellFormed(`${k}x`)).toBe(false);
    expect(wellFormed('DEMO_KEY')).toBe(false);
  });

  it('are unique and uniformly random enough not to repeat', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateKey().key));
    expect(keys.size).toBe(2000);
  });

  it('compare digests in constant time and reject different lengths', () => {
    const h = hashKey('x');
    expect(sameHash(h, hashKey('x'))).toBe(true);
    expect(sameHash(h, hashKey('y'))).toBe(false);
    expect(sameHash(h, h.slice(2))).toBe(false);
  });

  it('travel in X-API-Key or Authorization: Bearer', () => {
    expect(presentedKey({ 'x-api-key': ' abc ' })).toBe('abc');
    expect(presentedKey({ authorization: 'Bearer abc' })).toBe('abc');
    expect(presentedKey({ authorization: 'bearer   abc' })).toBe('abc');
    expect(presentedKey({ authorization: 'Basic abc' })).toBeNull();
    expect(presentedKey({})).toBeNull();
    expect(checksum('tai_live_x')).toMatch(/^[0-9A-Za-z]{6}$/);
  });
});
