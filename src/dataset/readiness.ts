// Member-state MiCA readiness score (data/codes/readiness.yaml): the sum of six components'
// points, each shown in the response. Pure; recomputed by test/data/mica.test.ts.
// The transitional period scored is the one in force under national law
// (data/mica/transitional-periods.yaml), else the one notified to ESMA; unknown when neither is.
import type { MemberStateRecord, ReadinessTable, TransitionalPeriod } from '../domain/mica.ts';

function tierPoints(tiers: ReadinessTable['authorised_casps'], count: number): number {
  return [...tiers].sort((a, b) => b.min - a.min).find((t) => count >= t.min)?.points ?? 0;
}

/** The months the formula scores: national law's, else the notified value, else null. */
export function scoredMonths(period: TransitionalPeriod | undefined): number | null {
  return period?.national.months ?? period?.notified.months ?? null;
}

export function readiness(
  state: MemberStateRecord,
  period: TransitionalPeriod | undefined,
  table: ReadinessTable,
) {
  const months = scoredMonths(period);
  const periodPoints =
    months === null
      ? table.transitional_period.unknown
      : ([...table.transitional_period.at_most_months]
          .sort((a, b) => a.months - b.months)
          .find((t) => months <= t.months)?.points ?? 0);
  const components = {
    competent_authority: {
      value: state.competent_authorities.map((a) => a.short_name).join(', '),
      points: state.competent_authorities.length ? table.competent_authority_designated : 0,
    },
    national_measures: {
      value: state.national_measures.adopted,
      points: state.national_measures.adopted ? table.national_measures_adopted : 0,
    },
    transitional_period_months: { value: months, points: periodPoints },
    authorised_casps: {
      value: state.authorised_casps,
      points: tierPoints(table.authorised_casps, state.authorised_casps),
    },
    emt_issuers: {
      value: state.emt_issuers,
      points: tierPoints(table.emt_issuers, state.emt_issuers),
    },
    dlt_pilot_infrastructures: {
      value: state.dlt_pilot_infrastructures,
      points: tierPoints(table.dlt_pilot_infrastructures, state.dlt_pilot_infrastructures),
    },
  };
  const score = Object.values(components).reduce((n, c) => n + c.points, 0);
  return { score: Math.min(100, score), formula_version: table.version, components };
}
