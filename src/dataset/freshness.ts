// How current the data is: each figure's age at the dataset date, and the dataset's freshness
// (oldest and median figure dates) carried in every response's meta and on the landing page.
import { daysBetween, type DatedFigure } from './figures.ts';

export interface Freshness {
  dataset_date: string;
  /** Dated figures counted (asset amounts of active assets, stablecoin market caps and supplies). */
  figures: number;
  oldest: string | null;
  median: string | null;
  median_age_days: number | null;
  /** Share of those figures dated within 365 days of the dataset date, in percent. */
  within_12_months_pct: number | null;
}

/** The lower median of the dates (a real figure's date, not an average of two). */
export function datasetFreshness(figures: readonly DatedFigure[], datasetDate: string): Freshness {
  const dates = figures
    .filter((f) => !f.ended && f.value !== null)
    .map((f) => f.as_of)
    .sort();
  const median = dates.length ? dates[Math.floor((dates.length - 1) / 2)]! : null;
  const recent = dates.filter((d) => daysBetween(d, datasetDate) <= 365).length;
  return {
    dataset_date: datasetDate,
    figures: dates.length,
    oldest: dates[0] ?? null,
    median,
    median_age_days: median ? daysBetween(median, datasetDate) : null,
    within_12_months_pct: dates.length ? Math.round((recent / dates.length) * 1000) / 10 : null,
  };
}

export const ageDays = daysBetween;
