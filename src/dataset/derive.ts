// Derived values (GTDS 2.1). Pure functions of a record and the code tables; every formula here
// is stated on the methodology page and recomputed independently by test/data/derived.test.ts.
import type { AssetRecord } from '../domain/asset.ts';
import {
  riskVectorNames,
  UNKNOWN_FACTOR,
  type CodeTables,
  type FactorRule,
  type RiskVector,
} from '../domain/codes.ts';

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
 * to its end date when it matured, was redeemed or closed. Without a dated launch it is `unknown`:
 * no source shows how long the asset has operated, and no length is assumed.
 */
export function operatingHistory(launchDate: string | null, until: string): string {
  if (launchDate === null) return UNKNOWN_FACTOR;
  const months = monthsBetween(launchDate, until);
  if (months > 36) return 'over_36_months';
  if (months >= 12) return 'twelve_to_36_months';
  return 'under_12_months';
}

/** Factors the build derives, each with the rule (FACTOR_RULES) that names its derivation. */
export const DERIVED_FACTORS: Partial<Record<RiskVector, Readonly<Record<string, FactorRule>>>> = {
  operational: { operating_history: 'operating-history' },
};

export interface RiskFactorScore {
  value: string;
  /** Null for `unknown`: an unknown fact has no points. */
  points: number | null;
  /** True when a named rule set the value from stated facts; false when the editor stated it. */
  derived: boolean;
  /** The rule that set a derived value; null for a stated one. */
  rule: string | null;
  /** Why the factor is `unknown`; null for a known value. */
  reason: string | null;
}

/** The scores a set of factors can reach: a known factor counts its points, an unknown any of its table's. */
export interface ScoreRange {
  min: number;
  max: number;
}

export interface RiskScore {
  /** Null when a factor is unknown: the score is then only known to lie in `range`. */
  score: number | null;
  /** The band of `score`; null with it. */
  band: string | null;
  range: ScoreRange;
  unknown_factors: number;
}

export interface RiskVectorScore extends RiskScore {
  factors: Record<string, RiskFactorScore>;
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

const mean = (values: readonly number[]) =>
  values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0;

/** A score from its range: known (and banded) only when no factor under it is unknown. */
function scored(range: ScoreRange, unknown: number, codes: CodeTables): RiskScore {
  const score = unknown === 0 ? range.min : null;
  return {
    score,
    band: score === null ? null : riskBand(score, codes),
    range,
    unknown_factors: unknown,
  };
}

/** One factor as served: its value, points, whether a rule set it, and the reason of an unknown. */
function factorScore(
  record: AssetRecord,
  vector: RiskVector,
  factor: string,
  table: Record<string, number>,
  datasetDate: string,
): RiskFactorScore | undefined {
  const derivedBy = DERIVED_FACTORS[vector]?.[factor];
  const note = record.risk_factor_notes?.[vector]?.[factor];
  const value = derivedBy
    ? operatingHistory(record.dates.launch_date, operatingUntil(record, datasetDate))
    : record.risk_factors[vector]?.[factor];
  if (value === undefined) return undefined;
  if (value === UNKNOWN_FACTOR) {
    const reason =
      note && 'reason' in note
        ? note.reason
        : derivedBy
          ? `No source dates the launch, so how long the asset has operated is not known. ${record.dates.launch_null_reason ?? ''}`.trim()
          : 'No source states this fact.';
    return { value, points: null, derived: false, rule: null, reason };
  }
  const rule = derivedBy ?? (note && 'rule' in note ? note.rule : null);
  return { value, points: table[value] ?? 0, derived: rule !== null, rule, reason: null };
}

/**
 * Risk vectors. A vector's score is the rounded mean of its factors' points; with an unknown
 * factor it has no score, only the range its score could take (each unknown factor at its table's
 * least and most points). The overall score is the rounded mean of the six vectors' scores; with
 * any unknown factor it too has only a range (the rounded means of the vectors' ranges), and it
 * counts its unknown factors. No unknown is given a value.
 */
export function riskProfile(record: AssetRecord, codes: CodeTables, datasetDate: string) {
  const vectors = {} as Record<RiskVector, RiskVectorScore>;
  for (const vector of riskVectorNames) {
    const table = codes.riskFactors.vectors[vector] ?? {};
    const factors: RiskVectorScore['factors'] = {};
    const mins: number[] = [];
    const maxes: number[] = [];
    for (const [factor, points] of Object.entries(table)) {
      const f = factorScore(record, vector, factor, points, datasetDate);
      if (!f) continue;
      factors[factor] = f;
      const all = Object.values(points);
      mins.push(f.points ?? Math.min(...all));
      maxes.push(f.points ?? Math.max(...all));
    }
    const unknown = Object.values(factors).filter((f) => f.points === null).length;
    vectors[vector] = {
      ...scored({ min: mean(mins), max: mean(maxes) }, unknown, codes),
      factors,
    };
  }
  const all = riskVectorNames.map((v) => vectors[v]);
  const overall = scored(
    { min: mean(all.map((v) => v.range.min)), max: mean(all.map((v) => v.range.max)) },
    all.reduce((n, v) => n + v.unknown_factors, 0),
    codes,
  );
  return { overall, vectors };
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
