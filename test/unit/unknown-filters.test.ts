// Filters treat unknown as unknown (issue 34): a stated value never matches a record whose value
// no source states; `unknown` is asked for explicitly; MiCA authorisation is filtered beside the
// classification.
import { describe, expect, it } from 'vitest';
import { selectRows } from '../../src/api/registry-list.ts';
import { filterCoins } from '../../src/api/market-query.ts';
import type { IndexRow } from '../../src/dataset/registry-index.ts';
import type { StablecoinView } from '../../src/domain/api-market.ts';

const row = (
  tfin: string,
  regime: string,
  authorisation: string,
  risk: number | null,
): IndexRow => ({
  tfin,
  name: tfin,
  asset_class: 'FUND',
  tfic: 'FUND.MMFD',
  ledgers: ['ETH'],
  mica_status: authorisation === 'not_applicable' ? 'financial_instrument' : 'art',
  mica_authorisation: authorisation,
  regime,
  eu_access: 'unknown',
  jurisdiction: null,
  validation_level: 'unverified',
  risk,
  as_of: '2026-01-01',
});

const core = {
  registry: {
    rows: [
      row('A', 'unregulated', 'not_applicable', 80),
      row('B', 'unknown', 'not_applicable', null),
      row('C', 'eu_or_uk_prospectus_or_ucits', 'not_authorised', 20),
    ],
  },
} as unknown as Parameters<typeof selectRows>[0];
const tfins = (q: Record<string, string>) => selectRows(core, q).map((r) => r.tfin);

describe('registry filters and unknown', () => {
  it('regime=unregulated does not match a record whose regime is unknown', () => {
    expect(tfins({ regime: 'unregulated' })).toEqual(['A']);
    expect(tfins({ regime: 'unknown' })).toEqual(['B']);
    expect(tfins({ eu_access: 'eligible_eu_investors' })).toEqual([]);
  });
  it('filters on the MiCA authorisation, not the classification', () => {
    expect(tfins({ mica_authorisation: 'not_authorised' })).toEqual(['C']);
    expect(tfins({ mica_status: 'art', mica_authorisation: 'authorised' })).toEqual([]);
  });
  it('sorts a record without a risk score last in both directions', () => {
    expect(tfins({ sort: 'risk' })).toEqual(['C', 'A', 'B']);
    expect(tfins({ sort: '-risk' })).toEqual(['A', 'C', 'B']);
  });
});

describe('stablecoin filter on authorisation', () => {
  const coin = (id: string, classification: string | null, status: string) =>
    ({
      id,
      peg_currency: 'EUR',
      last_changed: '2026-01-01',
      mica: { classification, authorisation: { status } },
    }) as unknown as StablecoinView;
  const coins = [
    coin('a', 'emt', 'authorised'),
    coin('b', 'emt', 'not_authorised'),
    coin('c', null, 'not_authorised'),
  ];
  it('keeps authorised e-money tokens only', () => {
    const ids = (q: Record<string, string>) => filterCoins(coins, q).map((c) => c.id);
    expect(ids({ mica_classification: 'emt', mica_authorisation: 'authorised' })).toEqual(['a']);
    expect(ids({ mica_authorisation: 'not_authorised' })).toEqual(['b', 'c']);
  });
});
