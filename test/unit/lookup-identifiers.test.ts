// Issue #15: the identifier index behind ?isin=, ?contract=, ?dti= and the 409 for an identifier
// carried by several assets (the shipped data has none, so the rows here are made up).
import { describe, expect, it } from 'vitest';
import { contractKey, type IndexRow } from '../../src/dataset/registry-index.ts';
import { finderOf, resolveLookup } from '../../src/api/registry-lookup.ts';

const row = (tfin: string, extra: Partial<IndexRow>): IndexRow => ({
  tfin,
  name: tfin,
  asset_class: 'FUND',
  tfic: 'FUND.MMFD',
  ledgers: ['ETH'],
  mica_status: 'financial_instrument',
  jurisdiction: 'LU',
  validation_level: 'L1',
  risk: 10,
  as_of: '2026-01-01',
  search: { names: tfin, issuer: '', kind: '', ledgers: '', ids: tfin, about: '' },
  ...extra,
});
const address = '0x7712c34205737192402172409a8F7ccef8aA2AEc';
const rows = [
  row('TFIN-FUND-ETH-2024-0001', {
    isin: 'LU0000000001',
    contracts: [contractKey('ETH', address)],
  }),
  row('TFIN-FUND-POL-2024-0002', {
    isin: 'LU0000000001',
    contracts: [contractKey('POL', address)],
  }),
  row('TFIN-FUND-STR-2024-0003', { dti: 'X9J9K872S', contracts: ['STR:BENJI-GABC'] }),
];
const has = (t: string) => rows.some((r) => r.tfin === t);
const lookup = (q: string) => resolveLookup(new URLSearchParams(q), has, () => [], finderOf(rows));

describe('lookup by identifier', () => {
  it('answers 409 ambiguous_identifier with the candidates when an ISIN maps to several assets', () => {
    const out = lookup('isin=lu0000000001');
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problem.code).toBe('ambiguous_identifier');
    expect(out.problem.extensions).toEqual({
      candidates: ['TFIN-FUND-ETH-2024-0001', 'TFIN-FUND-POL-2024-0002'],
    });
    expect(out.problem.detail).toContain('TFIN-FUND-ETH-2024-0001, TFIN-FUND-POL-2024-0002');
  });

  it('keys contracts by ledger, EVM addresses in any case, others exactly', () => {
    expect(lookup(`contract=pol:${address.toUpperCase().replace('0X', '0x')}`)).toEqual({
      ok: true,
      tfin: 'TFIN-FUND-POL-2024-0002',
      matched: { parameter: 'contract', value: `POL:${address.toLowerCase()}` },
    });
    expect(lookup('contract=STR:BENJI-GABC&include=history')).toMatchObject({
      ok: true,
      tfin: 'TFIN-FUND-STR-2024-0003',
      history: true,
    });
    expect(lookup('contract=STR:benji-gabc')).toMatchObject({ ok: false });
    expect(lookup('dti=x9j9k872s')).toMatchObject({ ok: true, tfin: 'TFIN-FUND-STR-2024-0003' });
  });

  it('keeps a TFIN hit as it was (no matched member, no history unless asked)', () => {
    expect(lookup('tfin=tfin-fund-eth-2024-0001')).toEqual({
      ok: true,
      tfin: 'TFIN-FUND-ETH-2024-0001',
    });
  });

  it('refuses two selectors with one problem naming both', () => {
    const out = lookup('dti=X9J9K872S&tfin=TFIN-FUND-ETH-2024-0001');
    expect(out).toMatchObject({ ok: false, problem: { code: 'conflicting_parameters' } });
  });
});

describe('amountInUsd', () => {
  it('converts at the ECB rate on or before the amount date, within 62 days, and names it', async () => {
    const { amountInUsd } = await import('../../src/dataset/asset-shapes.ts');
    const fx = {
      rates: [{ base: 'EUR', quote: 'USD', rate: 1.1, date: '2026-01-02', source: 'ecb' }],
      sources: [],
    } as unknown as Parameters<typeof amountInUsd>[1];
    expect(amountInUsd({ value: 100, currency: 'EUR', as_of: '2026-02-01' }, fx)).toEqual({
      value_usd: 110,
      fx: { rate: 1.1, date: '2026-01-02', source: 'ecb' },
      usd_null_reason: null,
    });
    expect(amountInUsd({ value: 100, currency: 'EUR', as_of: '2025-12-31' }, fx)).toEqual({
      value_usd: null,
      fx: null,
      usd_null_reason:
        "Not converted to USD: no ECB euro reference rate for USD of a day on or up to 62 days before 2025-12-31 (the amount's date) is held.",
    });
    expect(amountInUsd({ value: 100, currency: 'EUR', as_of: '2026-06-01' }, fx).value_usd).toBe(
      null,
    );
    expect(amountInUsd({ value: 5.6, currency: 'USD', as_of: '2026-06-01' }, fx)).toEqual({
      value_usd: 6,
      fx: null,
      usd_null_reason: null,
    });
  });
});
