// Parents (src/dataset/parents.ts): a share class takes the fund-level facts it leaves unknown from
// its fund and names the rule; a wrapper inherits nothing; classes that state a fund-level fact
// otherwise are listed; counts take a family once.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { assetRecord, type AssetRecord } from '../../src/domain/asset.ts';
import {
  INHERIT_RULE,
  distinctProducts,
  inheritFromParents,
  siblingDisagreements,
} from '../../src/dataset/parents.ts';

const fund = assetRecord.parse(
  parse(readFileSync('test/fixtures/assets/valid/TFIN-FUND-ETH-2024-0001.yaml', 'utf8')),
) as AssetRecord;

const child = (
  tfin: string,
  relation: 'share_class_of' | 'wraps',
  regime: string,
): AssetRecord => ({
  ...fund,
  tfin,
  parent: { tfin: fund.tfin, relation },
  issuer: { ...fund.issuer, jurisdiction: null, jurisdiction_null_reason: 'Stated on the fund.' },
  custody: { ...fund.custody, custodian: null },
  risk_factors: {
    ...fund.risk_factors,
    regulatory: { regime, eu_access: 'unknown' },
  },
  risk_factor_notes: { regulatory: { eu_access: { reason: 'Not stated for this class.' } } },
});

describe('parents', () => {
  test('a share class takes the fund-level facts it leaves unknown, naming the rule', () => {
    const [, cls] = inheritFromParents(
      [fund, child('C1', 'share_class_of', 'unknown')].map((record) => ({ record })),
    );
    const r = cls!.record;
    expect(r.risk_factors.regulatory).toEqual(fund.risk_factors.regulatory);
    expect(r.risk_factor_notes?.regulatory?.['regime']).toEqual({ rule: INHERIT_RULE });
    expect(r.issuer).toEqual(fund.issuer);
    expect(r.custody.custodian).toBe(fund.custody.custodian);
  });

  test('a wrapper inherits nothing', () => {
    const [, w] = inheritFromParents(
      [fund, child('W1', 'wraps', 'unknown')].map((record) => ({ record })),
    );
    expect(w!.record.risk_factors.regulatory?.['regime']).toBe('unknown');
    expect(w!.record.issuer.jurisdiction).toBeNull();
  });

  test('a class stating a fund-level fact otherwise is a disagreement; an unknown one is not', () => {
    const records = [
      fund,
      child('C1', 'share_class_of', 'unregulated'),
      child('C2', 'share_class_of', 'unknown'),
    ];
    expect(siblingDisagreements(records)).toEqual([
      {
        parent: fund.tfin,
        fact: 'risk_factors.regulatory.regime',
        values: [
          { tfin: fund.tfin, value: fund.risk_factors.regulatory!['regime'] },
          { tfin: 'C1', value: 'unregulated' },
        ],
      },
    ]);
    expect(
      siblingDisagreements(
        inheritFromParents(records.map((record) => ({ record }))).map((i) => i.record),
      ),
    ).toHaveLength(1);
  });

  test('counts take a family once', () => {
    const records = [
      fund,
      child('C1', 'share_class_of', 'unknown'),
      child('W1', 'wraps', 'unknown'),
    ];
    expect(distinctProducts(records).map((r) => r.tfin)).toEqual([fund.tfin]);
    // A child whose parent is not in the list counts on its own.
    expect(distinctProducts(records.slice(1)).map((r) => r.tfin)).toEqual(['C1', 'W1']);
  });
});
