// Issue #26: q= finds what a user types (everyday queries pinned to the assets and coins they must
// find), and changed_since= filters the stablecoins by their own last change. Over the real data,
// through the functions both the server and Astro answer with (selectRows, filterCoins).
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { filterCoins } from '../../src/api/market-query.ts';
import { selectRows } from '../../src/api/registry-list.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { lastChanged } from '../../src/dataset/last-changed.ts';

const loaded = await loadData(process.cwd(), '2026-11-22');
const dataset = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
);
const shortName = new Map(dataset.assets.map((a) => [a.tfin, a.short_name ?? a.tfin]));
const assets = (q: string, more: Record<string, string> = {}) =>
  selectRows(dataset, { q, ...more }).map((r) => shortName.get(r.tfin)!);
const coins = (q: Record<string, string>) => filterCoins(dataset.market.coins, q).map((c) => c.id);

describe('q= on the registry: everyday queries', { timeout: 180_000 }, () => {
  it('"treasury" finds the Treasury funds, BUIDL and OUSG among them ("treasuries" and the description count)', () => {
    const hits = assets('treasury');
    expect(hits).toEqual(expect.arrayContaining(['BUIDL', 'OUSG', 'WTGXX', 'JTRSY', 'TBILL']));
    // A name saying "Treasury" ranks above a description saying it.
    expect(hits.indexOf('JTRSY')).toBeLessThan(hits.indexOf('BUIDL'));
    expect(assets('Treasuries')).toEqual(hits);
  });

  it('"gold" finds the gold tokens (name and the precious-metal class)', () => {
    const named = dataset.assets.filter((a) => /gold/i.test(`${a.name} ${a.short_name ?? ''}`));
    const hits = assets('gold');
    // Every record named for gold comes before any record that only mentions it elsewhere.
    expect(hits.slice(0, named.length).sort()).toEqual(
      named.map((a) => a.short_name ?? a.tfin).sort(),
    );
    expect(hits).toEqual(
      expect.arrayContaining(['PAXG', 'XAUT', 'TFIN-CMDY-ORN-2024-0001']), // HSBC Gold Token (no short name)
    );
  });

  it('"euro" finds euro amounts and European issuers', () => {
    const hits = assets('euro');
    expect(hits.length).toBeGreaterThan(3);
    for (const tfin of selectRows(dataset, { q: 'euro' }).map((r) => r.tfin)) {
      const a = dataset.assets.find((x) => x.tfin === tfin)!;
      const text = JSON.stringify([a.name, a.issuer, a.amount?.currency, a.description]);
      expect(text, tfin).toMatch(/EUR|[Ee]uro/);
    }
  });

  it('an issuer name: "blackrock" finds BUIDL first; accents and case are ignored', () => {
    expect(assets('blackrock')[0]).toBe('BUIDL');
    expect(assets('SOCIÉTÉ GÉNÉRALE')).toEqual(assets('societe generale'));
    expect(assets('societe generale').length).toBeGreaterThan(1);
  });

  it('an ISIN prefix finds the assets whose ISIN starts with it; a whole ISIN ranks its asset first', () => {
    const withIsin = dataset.assets.filter((a) => a.isin_mapping.isin?.startsWith('CH'));
    expect(withIsin.length).toBeGreaterThan(1);
    expect(assets('CH').sort()).toEqual(
      expect.arrayContaining(withIsin.map((a) => a.short_name ?? a.tfin).sort()),
    );
    const one = withIsin[0]!;
    expect(assets(one.isin_mapping.isin!)[0]).toBe(one.short_name ?? one.tfin);
    expect(assets(one.isin_mapping.isin!.slice(0, 6))).toContain(one.short_name ?? one.tfin);
  });

  it('ledger names and TFIC words: "stellar" finds assets on Stellar, "money market" the money-market funds', () => {
    const onStellar = dataset.assets.filter((a) => a.ledgers.some((l) => l.ledger === 'STR'));
    expect(assets('stellar').sort()).toEqual(
      expect.arrayContaining(onStellar.map((a) => a.short_name ?? a.tfin).sort()),
    );
    const mmf = dataset.assets.filter((a) => a.classification.tfic.code === 'FUND.MMFD');
    expect(assets('money market')).toEqual(
      expect.arrayContaining(mmf.map((a) => a.short_name ?? a.tfin)),
    );
  });

  it('one letter wrong in a long word still finds; other filters and sort= still apply', () => {
    expect(assets('tresury')).toEqual(expect.arrayContaining(['BUIDL', 'OUSG']));
    expect(assets('zzzzqqq')).toEqual([]);
    const onEth = selectRows(dataset, { q: 'treasury', ledger: 'STR' });
    expect(onEth.every((r) => r.ledgers.includes('STR'))).toBe(true);
    const sorted = selectRows(dataset, { q: 'treasury', sort: 'tfin' }).map((r) => r.tfin);
    expect(sorted).toEqual([...sorted].sort());
    expect(sorted.length).toBe(assets('treasury').length);
  });
});

describe('q= on the stablecoins', () => {
  it('"euro" finds every EUR-pegged coin; an issuer and a symbol find theirs, the whole symbol first', () => {
    const eur = dataset.market.coins.filter((c) => c.peg_currency === 'EUR').map((c) => c.id);
    expect(coins({ q: 'euro' }).sort()).toEqual(expect.arrayContaining(eur.sort()));
    expect(coins({ q: 'circle' })).toEqual(expect.arrayContaining(['usdc', 'eurc']));
    expect(coins({ q: 'USDC' })[0]).toBe('usdc');
    expect(coins({ q: 'societe' }).sort()).toEqual(['eurcv', 'usdcv']);
  });
});

describe('changed_since= on the stablecoins', () => {
  it('keeps the coins whose own figures, history or sources changed after the date', () => {
    // Independently of the code: a coin's dated facts, its record's write date aside.
    const own = new Map(
      loaded.market!.stablecoins.map(({ record: { as_of: _written, ...facts } }) => [
        facts.id,
        lastChanged(facts),
      ]),
    );
    const dates = [...new Set(own.values())].sort();
    expect(dates.length).toBeGreaterThan(1);
    for (const since of ['2025-01-01', dates.at(-2)!, dates.at(-1)!, '2026-11-21']) {
      const expected = [...own].filter(([, d]) => d > since).map(([id]) => id);
      expect(coins({ changed_since: since }).sort(), since).toEqual(expected.sort());
    }
    // The release's dataset date is no coin's last change: a later date selects none.
    expect(coins({ changed_since: '2026-09-01' })).toEqual(
      [...own].filter(([, d]) => d > '2026-09-01').map(([id]) => id),
    );
    expect(coins({ changed_since: '2026-09-01' }).length).toBeLessThan(dataset.market.coins.length);
  });
});
