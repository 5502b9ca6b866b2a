// Recomputes every derived registry number straight from the YAML files, independently of
// src/dataset/derive.ts, and compares it with what the API serves.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { loadData } from '../../src/authoring/load.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

const root = path.resolve('.');
const read = (f: string) => parse(readFileSync(path.join(root, f), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const custody = read('data/codes/custody.yaml');
const grades = read('data/codes/grades.yaml');
const factors = read('data/codes/risk-factors.yaml').vectors as Record<
  string,
  Record<string, Record<string, number>>
>;
const files = readdirSync(path.join(root, 'data/assets')).filter((f) => f.endsWith('.yaml'));
const seriesFiles = readdirSync(path.join(root, 'data/assets/series')).filter((f) =>
  f.endsWith('.yaml'),
);

const release = read('data/release.yaml');
const artIssuers = read('data/mica/register/art.yaml').issuers as unknown[];
const loaded = await loadData(root, RELEASE_DATE);
const { problems } = loaded;
const served = new Map(
  buildDataset(
    { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
    'test',
    new Date(),
  ).assets.map((a) => [a.tfin, a]),
);

/**
 * The record as the methodology serves it: a share class (`parent.relation: share_class_of`) takes
 * its fund's regime, EU access, custodian or depository factor and service providers where it
 * leaves them unknown, and its fund's custody and issuer where it names no custodian or domicile.
 */
type Doc = ReturnType<typeof read>;
function asServed(r: Doc): Doc {
  if (r.parent?.relation !== 'share_class_of') return r;
  const fund = read(`data/assets/${r.parent.tfin}.yaml`);
  const out = structuredClone(r);
  const fundLevel = [
    ['regulatory', 'regime'],
    ['regulatory', 'eu_access'],
    ['counterparty', 'custodian_or_depository'],
    ['operational', 'service_providers'],
  ] as const;
  for (const [vector, factor] of fundLevel) {
    const own = r.risk_factors[vector]?.[factor];
    const theirs = fund.risk_factors[vector]?.[factor];
    if ((own === undefined || own === 'unknown') && theirs !== undefined && theirs !== 'unknown')
      out.risk_factors[vector] = { ...out.risk_factors[vector], [factor]: theirs };
  }
  if (r.custody.custodian === null && fund.custody.custodian) out.custody = fund.custody;
  if (r.issuer.jurisdiction === null && fund.issuer.jurisdiction) out.issuer = fund.issuer;
  return out;
}

function expectedGrade(points: number): string {
  for (const g of grades.custody_grade as { grade: string; min_points: number }[])
    if (points >= g.min_points) return g.grade;
  throw new Error('scale has no floor');
}
function band(score: number): string {
  return (grades.risk_band as { band: string; max_score: number }[]).find(
    (b) => score <= b.max_score,
  )!.band;
}
/** Operating history runs to the dataset date, or to the end date of an ended asset. */
function operatedUntil(dates: { end_date?: string | null }): string {
  const end = dates.end_date;
  return end && end < release.dataset_date ? end : (release.dataset_date as string);
}
function historyFactor(launch: string | null, asOf: string): string {
  // An undated launch shows no history: unknown, never a band.
  if (launch === null) return 'unknown';
  const [ly, lm, ld] = launch.split('-').map(Number);
  const [ay, am, ad] = asOf.split('-').map(Number);
  const months = (ay! - ly!) * 12 + (am! - lm!) - (ad! < ld! ? 1 : 0);
  return months > 36 ? 'over_36_months' : months >= 12 ? 'twelve_to_36_months' : 'under_12_months';
}

describe('the registry data', () => {
  it('is valid and has at least 30 assets', () => {
    expect(problems).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(30);
    // Every asset file and every series file is one served record.
    expect(served.size).toBe(files.length + seriesFiles.length);
  });

  it.each(files)(
    '%s: custody grade, risk vectors and GTDS level follow the documented formulas',
    (file) => {
      const r = asServed(read(`data/assets/${file}`));
      const a = served.get(r.tfin)!;
      // Custody grade: sum of the four custody facts' points.
      const points = ['custody_model', 'segregation', 'custodian_status', 'register'].reduce(
        (sum, table, i) => {
          const field = ['model', 'segregation', 'custodian_status', 'register'][i]!;
          return sum + custody[table][r.custody[field]].points;
        },
        0,
      );
      expect(a.custody.grade_points).toBe(points);
      expect(a.custody.grade).toBe(expectedGrade(points));
      // Risk: mean of factor points per vector, mean of vectors overall, both rounded. An unknown
      // factor has no points: its vector and the overall score have none, only the range with each
      // unknown factor at its table's least and most points.
      const mins: number[] = [];
      const maxes: number[] = [];
      let unknownTotal = 0;
      for (const [vector, table] of Object.entries(factors)) {
        const values = Object.keys(table).map((factor) =>
          factor === 'operating_history'
            ? historyFactor(r.dates.launch_date, operatedUntil(r.dates))
            : (r.risk_factors[vector][factor] as string),
        );
        const lo = values.map((v, i) =>
          v === 'unknown'
            ? Math.min(...Object.values(table[Object.keys(table)[i]!]!))
            : table[Object.keys(table)[i]!]![v]!,
        );
        const hi = values.map((v, i) =>
          v === 'unknown'
            ? Math.max(...Object.values(table[Object.keys(table)[i]!]!))
            : table[Object.keys(table)[i]!]![v]!,
        );
        const unknown = values.filter((v) => v === 'unknown').length;
        unknownTotal += unknown;
        const meanOf = (xs: number[]) => Math.round(xs.reduce((x, y) => x + y, 0) / xs.length);
        const served = a.risk.vectors[vector as keyof typeof a.risk.vectors];
        expect(served.range, vector).toEqual({ min: meanOf(lo), max: meanOf(hi) });
        expect(served.unknown_factors, vector).toBe(unknown);
        expect(served.score, vector).toBe(unknown ? null : meanOf(lo));
        expect(served.band).toBe(unknown ? null : band(meanOf(lo)));
        for (const [i, factor] of Object.keys(table).entries())
          if (values[i] === 'unknown') expect(served.factors[factor]!.reason, factor).toBeTruthy();
        mins.push(meanOf(lo));
        maxes.push(meanOf(hi));
      }
      const lo = Math.round(mins.reduce((x, y) => x + y, 0) / mins.length);
      const hi = Math.round(maxes.reduce((x, y) => x + y, 0) / maxes.length);
      expect(a.risk.overall).toEqual({
        score: unknownTotal ? null : lo,
        band: unknownTotal ? null : band(lo),
        range: { min: lo, max: hi },
        unknown_factors: unknownTotal,
      });
      // MiCA: a classification that engages an authorisation (art, emt) is never served alone.
      const engages = ['art', 'emt'].includes(r.mica.status);
      expect(a.mica.authorisation.status === 'not_applicable').toBe(!engages);
      if (r.mica.status === 'art' && artIssuers.length === 0)
        expect(a.mica.authorisation.status).toBe('not_authorised');
      // GTDS level: 3 when everything holds, 2 when L2 + two sources + grade C or better, 1 with L1
      // evidence, 0 when unverified.
      const level =
        r.validation.level === 'unverified' ? 0 : Number(String(r.validation.level).slice(1));
      const tier2 =
        level >= 2 && r.sources.length >= 2 && ['A', 'B', 'C'].includes(a.custody.grade);
      const tier3 =
        tier2 &&
        level === 3 &&
        r.sources.length >= 3 &&
        ['A', 'B'].includes(a.custody.grade) &&
        r.identifiers.isin !== null;
      expect(a.gtds_compliance.level).toBe(
        tier3 ? 'GTDS-3' : tier2 ? 'GTDS-2' : level >= 1 ? 'GTDS-1' : 'GTDS-0',
      );
      // Each figure's age: whole days from its date to the dataset date.
      if (r.amount)
        expect(a.amount!.age_days).toBe(
          (Date.parse(release.dataset_date) - Date.parse(r.amount.as_of)) / 86_400_000,
        );
    },
  );

  it('never claims a validation level its evidence does not support', () => {
    for (const file of files) {
      const r = read(`data/assets/${file}`);
      const level = r.validation.level as string;
      const evidence = r.validation.evidence ?? {};
      const kindOf = (id: string) =>
        (r.sources as { id: string; kind: string }[]).find((s) => s.id === id)?.kind;
      if (level !== 'unverified') expect(evidence.technical?.length ?? 0, file).toBeGreaterThan(0);
      if (level === 'L2' || level === 'L3')
        expect(
          (evidence.documents ?? []).some((id: string) =>
            ['prospectus', 'regulatory_filing'].includes(kindOf(id)!),
          ),
          file,
        ).toBe(true);
      if (level === 'L3')
        expect(
          (evidence.confirmation ?? []).some((id: string) =>
            ['csd_or_registrar', 'transfer_agent'].includes(kindOf(id)!),
          ),
          file,
        ).toBe(true);
    }
  });

  it('gives every null identifier a reason', () => {
    for (const file of files) {
      const r = read(`data/assets/${file}`);
      if (r.identifiers.isin === null) expect(r.identifiers.null_reason, file).toBeTruthy();
      if (r.issuer.lei === null) expect(r.issuer.lei_null_reason, file).toBeTruthy();
      for (const l of r.ledgers)
        if (l.contract_address === null) expect(l.contract_address_null_reason, file).toBeTruthy();
    }
  });
});
