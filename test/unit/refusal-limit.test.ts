import { describe, expect, it } from 'vitest';
import { refusalLimit } from '../../src/access/refusal-limit.ts';

describe('the refusal limit per address', () => {
  it('blocks an address past its limit until its window ends, and no other address', () => {
    let t = 1_000_000;
    const limit = refusalLimit({ requests: 3, windowSeconds: 60 }, () => t);
    for (let i = 0; i < 3; i++) limit.refused('10.0.0.1');
    expect(limit.blockedFor('10.0.0.1')).toBeNull();
    t += 10_000;
    limit.refused('10.0.0.1');
    expect(limit.blockedFor('10.0.0.1')).toBe(50);
    expect(limit.blockedFor('10.0.0.2')).toBeNull();
    t += 49_500;
    expect(limit.blockedFor('10.0.0.1')).toBe(1);
    t += 500;
    expect(limit.blockedFor('10.0.0.1')).toBeNull();
    // A new window: the count starts again.
    limit.refused('10.0.0.1');
    expect(limit.blockedFor('10.0.0.1')).toBeNull();
  });

  it('blocks again when a later window is used up', () => {
    let t = 0;
    const limit = refusalLimit({ requests: 1, windowSeconds: 10 }, () => t);
    limit.refused('a');
    limit.refused('a');
    expect(limit.blockedFor('a')).toBe(10);
    t = 10_000;
    limit.refused('a');
    limit.refused('a');
    expect(limit.blockedFor('a')).toBe(10);
  });

  it('holds at most its bound of addresses: a flood of new ones forgets the oldest', () => {
    const t = 0;
    const limit = refusalLimit({ requests: 1, windowSeconds: 60 }, () => t, 100);
    limit.refused('first');
    for (let i = 0; i < 100; i++) limit.refused(`10.0.0.${i}`);
    // 'first' was pushed out: its second refusal starts a new count instead of blocking it.
    limit.refused('first');
    expect(limit.blockedFor('first')).toBeNull();
    limit.refused('10.0.0.99');
    expect(limit.blockedFor('10.0.0.99')).toBe(60);
  });
});
