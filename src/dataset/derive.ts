// Derived values (GTDS 2.1). Pure functions of a record and the code tables; every formula here
// is stated on the methodology page and recomputed independently by test/data/derived.test.ts.
import type { AssetRecord } from '../domain/asset.ts';
import { riskVectorNames, type CodeTables, type RiskVector } from '../domain/codes.ts';

export const METHODOLOGY_VERSION = 'GTDS 2.1';

export interface CustodyGrade {
  grade: string;
  points: number;
  components: { model: number; segregation: number; custodian_status: number; register: number };
}

/** Custody grade: the sum of the points of the four custody facts, graded on the custody_grade scale. */
export function custodyGrade(custody: AssetRecord['custody'], codes: CodeTables): CustodyGrade {
  const components = {
    model: codes.custody.custody_model[custody.model]?.points ?? 0,
    segregation: codes.custody.segregation[custody.segregation]?.points ?? 0,
    custodian_status: codes.custody.custodian_status[custody.custodian_status]?.points ?? 0,
    register: codes.custody.register[custody.register]?.points ?? 0,
  };
  const points =
    components.model + components.segregation + components.custodian_status + components.register;
  const scale = [...codes.grades.custody_grade].sort((a, b) => b.min_points - a.min_points);
  const grade = scale.find((g) => points >= g.min_points)?.grade ?? scale[scale.length - 1]!.grade;
  return { grade, points, components };
}

/** Whole months from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
}

/**
 * The operational factor: how long the asset has operated — from launch to the dataset date, or
 * to its end date when it matured, was redeemed or closed. Without a dated launch, under 12 months.
 */
export function operatingHistory(launchDate: string | null, until: string): string {
  // No dated launch: no history can be shown, so it scores as the shortest.
  if (launchDate === null) return 'under_12_months';
  const months = monthsBetween(launchDate, until);
  if (months > 36) return 'over_36_months';
  if (months >= 12) return 'twelve_to_36_months';
  return 'under_12_months';
}

export const DERIVED_FACTORS: Partial<Record<RiskVector, readonly string[]>> = {
  operational: ['operating_history'],
};

export interface RiskVectorScore {
  score: number;
  band: string;
  factors: Record<string, { value: string; points: number; derived: boolean }>;
}

export function riskBand(score: number, codes: CodeTables): string {
  const bands = [...codes.grades.risk_band].sort((a, b) => a.max_score - b.max_score);
  return bands.find((b) => score <= b.max_score)?.band ?? bands[bands.length - 1]!.band;
}

/** The day operating history is measured to: the end date of an ended asset, else the dataset date. */
export function operatingUntil(record: AssetRecord, datasetDate: string): string {
  const end = record.dates.end_date ?? null;
  return end && end < datasetDate ? end : datasetDate;
}

/** Risk vectors: each vector is the rounded mean of its factors' points; overall is the rounded mean of the six. */
export function riskProfile(record: AssetRecord, codes: CodeTables, datasetDate: string) {
  const vectors = {} as Record<RiskVector, RiskVectorScore>;
  for (const vector of riskVectorNames) {
    const table = codes.riskFactors.vectors[vector] ?? {};
    const declared = record.risk_factors[vector] ?? {};
    const factors: RiskVectorScore['factors'] = {};
    for (const factor of Object.keys(table)) {
      const derived = DERIVED_FACTORS[vector]?.includes(factor) ?? false;
      const value = derived
        ? operatingHistory(record.dates.launch_date, operatingUntil(record, datasetDate))
        : declared[factor];
      if (value === undefined) continue;
      factors[factor] = { value, points: table[factor]?.[value] ?? 0, derived };
    }
    const points = Object.values(factors).map((f) => f.points);
    const score = points.length ? Math.round(points.reduce((a, b) => a + b, 0) / points.length) : 0;
    vectors[vector] = { score, band: riskBand(score, codes), factors };
  }
  const overallScore = Math.round(
    riskVectorNames.reduce((sum, v) => sum + vectors[v].score, 0) / riskVectorNames.length,
  );
  return { overall: { score: overallScore, band: riskBand(overallScore, codes) }, vectors };
}

export type RiskProfile = ReturnType<typeof riskProfile>;

const LEVEL_RANK = { unverified: 0, L1: 1, L2: 2, L3: 3 } as const;

export interface GtdsCompliance {
  level: 'GTDS-0' | 'GTDS-1' | 'GTDS-2' | 'GTDS-3';
  criteria: { id: string; met: boolean }[];
}

/** A GTDS criterion and the lowest level that requires it (GTDS-2 or GTDS-3). */
export interface GtdsCriterion {
  id: string;
  requiredFor: 2 | 3;
  met: (record: AssetRecord, rank: number, grade: string) => boolean;
}

/**
 * The criteria in the order the profile lists them. Each names the level it belongs to, so the
 * level never depends on where a criterion sits in the list.
 */
export const GTDS_CRITERIA: readonly GtdsCriterion[] = [
  { id: 'validation_l2_or_higher', requiredFor: 2, met: (_, rank) => rank >= 2 },
  { id: 'two_or_more_sources', requiredFor: 2, met: (r) => r.sources.length >= 2 },
  {
    id: 'custody_grade_c_or_better',
    requiredFor: 2,
    met: (_, __, grade) => ['A', 'B', 'C'].includes(grade),
  },
  { id: 'validation_l3', requiredFor: 3, met: (_, rank) => rank >= 3 },
  { id: 'three_or_more_sources', requiredFor: 3, met: (r) => r.sources.length >= 3 },
  {
    id: 'custody_grade_b_or_better',
    requiredFor: 3,
    met: (_, __, grade) => ['A', 'B'].includes(grade),
  },
  { id: 'isin_mapped', requiredFor: 3, met: (r) => r.identifiers.isin !== null },
];

/**
 * GTDS compliance level: GTDS-3 when every criterion holds; GTDS-2 when every criterion required
 * for GTDS-2 (L2, two sources, custody C) holds; GTDS-1 when the record has L1 technical
 * evidence; GTDS-0 when it is listed but unverified.
 */
export function gtdsCompliance(
  record: AssetRecord,
  grade: string,
  criteria: readonly GtdsCriterion[] = GTDS_CRITERIA,
): GtdsCompliance {
  const rank = LEVEL_RANK[record.validation.level];
  const evaluated = criteria.map((c) => ({ c, met: c.met(record, rank, grade) }));
  const holdsUpTo = (level: 2 | 3) => evaluated.every(({ c, met }) => met || c.requiredFor > level);
  const level = holdsUpTo(3) ? 'GTDS-3' : holdsUpTo(2) ? 'GTDS-2' : rank >= 1 ? 'GTDS-1' : 'GTDS-0';
  return { level, criteria: evaluated.map(({ c, met }) => ({ id: c.id, met })) };
}
