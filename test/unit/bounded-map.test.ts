import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/lib/bounded-map.ts';

describe('BoundedMap', () => {
  it('drops the oldest entry when a new key arrives at the bound', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
  });
  it('updates an existing key in place without dropping anything', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });
  it('keeps least-recently-used order for callers that re-insert on use', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    m.delete('a');
    m.set('a', 1);
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });
  it('drops the oldest eighth at once at a larger bound, and never holds more than the bound', () => {
    const m = new BoundedMap<number, number>(80);
    for (let i = 0; i < 80; i++) m.set(i, i);
    m.set(80, 80);
    expect(m.size).toBe(71);
    expect(m.has(9)).toBe(false);
    expect(m.has(10)).toBe(true);
    for (let i = 81; i < 1000; i++) {
      m.set(i, i);
      expect(m.size).toBeLessThanOrEqual(80);
    }
    expect(m.has(999)).toBe(true);
  });
});
