// How current the data is: each figure's age at the dataset date against its kind's maximum age
// (data/codes/source-policy.yaml), and the dataset's freshness carried in every response's meta,
// the status operation, /docs/data-report and the landing page: the share of figures within
// their maximum age, the oldest figure (which record, which figure), and the oldest and median
// dates. `npm run data:refresh` lists the figures past their maximum age from the same facts.
import type { FigureKind } from '../domain/codes.ts';
import { daysBetween, type DatedFigure } from './figures.ts';

export type MaxAgeDays = Record<FigureKind, number | null>;

/** One figure's age: which record, which figure, and whether it is past its kind's maximum age. */
export interface FigureAge {
  record: string;
  /** Where the figure is in its record, e.g. `amount` or `circulating_supply`. */
  figure: string;
  kind: FigureKind;
  as_of: string;
  age_days: number;
  /** The kind's maximum age in days; null when the kind does not age (a fixed issue size). */
  max_age_days: number | null;
  past_max_age: boolean;
  /** Why no newer figure exists, when the record says so. */
  stale_reason: string | null;
}

export interface Freshness {
  dataset_date: string;
  /** Dated figures counted (asset amounts of active assets, stablecoin market caps and supplies). */
  figures: number;
  oldest: string | null;
  median: string | null;
  median_age_days: number | null;
  /** Share of those figures dated within 365 days of the dataset date, in percent. */
  within_12_months_pct: number | null;
  /** Share of those figures within their kind's maximum age, in percent. */
  within_max_age_pct: number | null;
  /** How many of those figures are past their kind's maximum age. */
  past_max_age: number;
  /** The oldest figure, named (the oldest of its date by record, for a stable answer). */
  oldest_figure: { record: string; figure: string; as_of: string; age_days: number } | null;
}

const recordId = (f: DatedFigure) => {
  const r = f.item.record as { tfin?: string; id?: string };
  return r.tfin ?? r.id ?? f.item.file.file;
};

/** Whether a figure of `kind` dated `as_of` is past its maximum age at `datasetDate`. */
export function isPastMaxAge(
  kind: FigureKind,
  as_of: string,
  datasetDate: string,
  maxAge: MaxAgeDays,
): boolean {
  const max = maxAge[kind];
  return max !== null && max !== undefined && daysBetween(as_of, datasetDate) > max;
}

/** The age of every figure that ages (ended assets' final figures do not), oldest first. */
export function figureAges(
  figures: readonly DatedFigure[],
  datasetDate: string,
  maxAge: MaxAgeDays,
): FigureAge[] {
  return figures
    .filter((f) => !f.ended && f.value !== null)
    .map((f) => ({
      record: recordId(f),
      figure: f.at.join('.'),
      kind: f.kind,
      as_of: f.as_of,
      age_days: daysBetween(f.as_of, datasetDate),
      max_age_days: maxAge[f.kind] ?? null,
      past_max_age: isPastMaxAge(f.kind, f.as_of, datasetDate, maxAge),
      stale_reason: f.stale_reason,
    }))
    .sort(
      (a, b) =>
        a.as_of.localeCompare(b.as_of) ||
        a.record.localeCompare(b.record) ||
        a.figure.localeCompare(b.figure),
    );
}

const pct = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 10 : null);

/** The lower median of the dates (a real figure's date, not an average of two). */
export function datasetFreshness(
  figures: readonly DatedFigure[],
  datasetDate: string,
  maxAge: MaxAgeDays,
): Freshness {
  const ages = figureAges(figures, datasetDate, maxAge);
  const dates = ages.map((a) => a.as_of);
  const median = dates.length ? dates[Math.floor((dates.length - 1) / 2)]! : null;
  const recent = ages.filter((a) => a.age_days <= 365).length;
  const past = ages.filter((a) => a.past_max_age).length;
  const oldest = ages[0];
  return {
    dataset_date: datasetDate,
    figures: dates.length,
    oldest: dates[0] ?? null,
    median,
    median_age_days: median ? daysBetween(median, datasetDate) : null,
    within_12_months_pct: pct(recent, dates.length),
    within_max_age_pct: pct(dates.length - past, dates.length),
    past_max_age: past,
    oldest_figure: oldest
      ? {
          record: oldest.record,
          figure: oldest.figure,
          as_of: oldest.as_of,
          age_days: oldest.age_days,
        }
      : null,
  };
}

export const ageDays = daysBetween;
