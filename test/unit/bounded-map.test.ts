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
});
