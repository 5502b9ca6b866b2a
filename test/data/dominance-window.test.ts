// The dominance rules on small made-up coin sets, where each rule can be seen to decide: the
// quarter chosen by coverage and recency together, the market total dated inside it (or the
// reason there is none), a USD-only total giving no market share to a coin of another peg, a peg
// with no coin compared, and the label of a comparison older than eight months.
import { describe, expect, it } from 'vitest';
import type { MarketTotalsFile, StablecoinRecord } from '../../src/domain/market.ts';
import { dominance, monthsBefore, quarterOf } from '../../src/dataset/stablecoins.ts';

const coin = (id: string, points: [number, string][], peg = 'USD'): StablecoinRecord => {
  const [first, ...rest] = points;
  return {
    id,
    peg_currency: peg,
    status: { value: 'live' },
    circulating_supply: first
      ? {
          value: first[0],
          as_of: first[1],
          source: 'src',
          history: rest.map(([value, as_of]) => ({ value, as_of, source: 'src' })),
        }
      : { value: null, as_of: null, source: null, value_null_reason: 'none known' },
  } as unknown as StablecoinRecord;
};
const fx = {
  rates: [{ base: 'EUR', quote: 'USD', rate: 1.1, date: '2026-03-31', source: 'ecb' }],
  sources: [],
} as never;
const totals = (list: [string, number, string, 'all_stablecoins' | 'usd_pegged'][]) =>
  ({
    totals: list.map(([id, value_usd, as_of, scope]) => ({
      id,
      value_usd,
      as_of,
      scope,
      kind: 'aggregator_total',
      measure: 'm',
      counted_by: 'c',
      source: 's',
    })),
    sources: [{ id: 's', kind: 'data_aggregator', publisher: 'P' }],
  }) as unknown as MarketTotalsFile;

describe('dominance rules', () => {
  it('quarters and months are calendar ones', () => {
    expect(quarterOf('2026-02-13')).toEqual({ start: '2026-01-01', end: '2026-03-31' });
    expect(quarterOf('2026-12-31')).toEqual({ start: '2026-10-01', end: '2026-12-31' });
    expect(monthsBefore('2026-11-30', 9)).toBe('2026-02-28');
  });

  it('takes the latest quarter within 5 points of the best coverage, not the best one', () => {
    // Q1: a (90) and b (10) → 100 %; Q2: a only → 90 %, more than 5 points below: Q1 wins.
    const set = [
      coin('a', [
        [90, '2026-05-01'],
        [80, '2026-02-01'],
      ]),
      coin('b', [[10, '2026-03-01']]),
    ];
    expect(dominance(set, null).window).toEqual({ start: '2026-01-01', end: '2026-03-31' });
    // b at 4 of 100: Q2 covers 96 %, within 5 points of Q1's 100 %: the later quarter wins.
    const close = [
      coin('a', [
        [96, '2026-05-01'],
        [80, '2026-02-01'],
      ]),
      coin('b', [[4, '2026-03-01']]),
    ];
    expect(dominance(close, null).window).toEqual({ start: '2026-04-01', end: '2026-06-30' });
  });

  it('shares of the market total dated in the window, beside shares of the compared coins', () => {
    const set = [
      coin('a', [[60, '2026-03-31']]),
      coin('b', [[20, '2026-02-15']]),
      coin('e', [[10, '2026-03-31']], 'EUR'),
      coin('z', []),
    ];
    const all = dominance(set, fx, totals([['t1', 200, '2026-03-16', 'all_stablecoins']]));
    expect(all.marketTotal?.total.id).toBe('t1');
    expect([...all.marketShares]).toEqual([
      ['a', 30],
      ['b', 10],
      ['e', 5.5],
    ]);
    expect([...all.shares].map(([id]) => id)).toEqual(['a', 'b', 'e']);
    expect([...all.shares.values()].reduce((n, v) => n + v, 0)).toBeCloseTo(100, 6);
    expect(all.coverageOfMarketPct).toBe(45.5);
    // A USD-only total: the EUR coin gets no market share, and coverage counts USD coins only.
    const usd = dominance(set, fx, totals([['t2', 100, '2026-03-20', 'usd_pegged']]));
    expect(usd.marketShares.has('e')).toBe(false);
    expect(usd.coverageOfMarketPct).toBe(80);
    // No total inside the window: no market share, and the reason names the nearest one.
    const none = dominance(set, fx, totals([['t3', 300, '2026-06-25', 'all_stablecoins']]));
    expect(none.marketTotal).toBeNull();
    expect(none.marketShares.size).toBe(0);
    expect(none.marketTotalNullReason).toMatch(
      /^No dated total of the whole stablecoin market falls inside the window \(2026-01-01 to 2026-03-31\).*nearest known total is US\$0\.0 bn on 2026-06-25/,
    );
    // A peg with no coin compared is not compared, not 0 %.
    expect(all.pegGroups.find((g) => g.currency === 'EUR')?.share_pct).not.toBeNull();
    const usdOnly = dominance([coin('a', [[60, '2026-03-31']]), coin('e', [], 'EUR')], fx);
    expect(usdOnly.pegGroups.find((g) => g.currency === 'EUR')).toMatchObject({
      coins: 0,
      share_pct: null,
    });
  });

  it('labels a comparison whose window ended more than eight months before the dataset date', () => {
    const set = [coin('a', [[60, '2026-03-31']])];
    expect(dominance(set, null, null, '2026-11-27').outdatedNote).toBeNull();
    expect(dominance(set, null, null, '2026-12-01').outdatedNote).toMatch(
      /^Outdated comparison: its figures are dated 2026-01-01 to 2026-03-31, more than 8 months before the dataset date \(2026-12-01\)/,
    );
  });
});
