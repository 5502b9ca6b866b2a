// Risk with unknown factors (issue 34): no points, no score, a range and a count; a rule-set value
// says so; no unknown becomes the worst value.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCodeTables } from '../../src/authoring/load.ts';
import { riskProfile } from '../../src/dataset/derive.ts';
import type { AssetRecord } from '../../src/domain/asset.ts';

const codes = loadCodeTables(path.resolve('.'), [])!.tables;
const base = parse(
  readFileSync('test/fixtures/assets/valid/TFIN-FUND-ETH-2024-0001.yaml', 'utf8'),
) as AssetRecord;
const table = codes.riskFactors.vectors.regulatory!;

describe('risk with unknown factors', () => {
  const record: AssetRecord = {
    ...base,
    risk_factors: {
      ...base.risk_factors,
      regulatory: { regime: 'unknown', eu_access: 'eligible_eu_investors' },
    },
    risk_factor_notes: {
      regulatory: { regime: { reason: 'No issuer document states the regime.' } },
      credit: { structure: { rule: 'fund-units' } },
    },
  };
  const risk = riskProfile(record, codes, '2025-07-31');
  const known = riskProfile(base, codes, '2025-07-31');

  it('gives an unknown factor no points, and its vector a range instead of a score', () => {
    const regulatory = risk.vectors.regulatory;
    expect(regulatory.factors['regime']).toEqual({
      value: 'unknown',
      points: null,
      derived: false,
      rule: null,
      reason: 'No issuer document states the regime.',
    });
    const regimes = Object.values(table['regime']!);
    const euAccess = table['eu_access']!['eligible_eu_investors']!;
    expect(regulatory).toMatchObject({
      score: null,
      band: null,
      unknown_factors: 1,
      range: {
        min: Math.round((Math.min(...regimes) + euAccess) / 2),
        max: Math.round((Math.max(...regimes) + euAccess) / 2),
      },
    });
  });

  it('counts the unknown in the overall score, which has a range and no score', () => {
    expect(risk.overall.score).toBeNull();
    expect(risk.overall.unknown_factors).toBe(1);
    expect(risk.overall.range.min).toBeLessThanOrEqual(risk.overall.range.max);
    expect(known.overall.score).toBe(known.overall.range.min);
    expect(known.overall.range.max).toBe(known.overall.range.min);
  });

  it('says which values a named rule set', () => {
    expect(risk.vectors.credit.factors['structure']).toMatchObject({
      derived: true,
      rule: 'fund-units',
    });
    expect(risk.vectors.credit.factors['underlying_credit']).toMatchObject({
      derived: false,
      rule: null,
    });
    expect(risk.vectors.operational.factors['operating_history']).toMatchObject({
      derived: true,
      rule: 'operating-history',
    });
  });

  it('makes operating history unknown without a dated launch, never the shortest band', () => {
    const undated = riskProfile(
      { ...base, dates: { ...base.dates, launch_date: null, launch_null_reason: 'Not dated.' } },
      codes,
      '2025-07-31',
    );
    expect(undated.vectors.operational.factors['operating_history']).toMatchObject({
      value: 'unknown',
      points: null,
    });
    expect(undated.vectors.operational.score).toBeNull();
  });
});
