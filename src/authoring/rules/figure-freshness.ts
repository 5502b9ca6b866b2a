// The rule `figure-freshness` (npm run data:check).
import { daysBetween } from '../../dataset/figures.ts';
import { figureCheck } from './rule.ts';

export const figureFreshness = figureCheck('figure-freshness', (figure, ctx, report) => {
  const maxAge = ctx.codes.sourcePolicy.max_age_days[figure.kind];
  const age = daysBetween(figure.as_of, ctx.datasetDate);
  if (age < 0) {
    report(
      ['as_of'],
      `${figure.as_of} is after the dataset date ${ctx.datasetDate}`,
      'raise dataset_date in data/release.yaml, or correct the date',
    );
    return;
  }
  const stale = maxAge !== null && age > maxAge && !figure.ended;
  if (!stale && figure.stale_reason && !figure.ended)
    report(
      ['stale_reason'],
      'is given for a figure that is not stale',
      'remove stale_reason (it explains only figures older than their maximum age)',
    );
  if (stale && !figure.stale_reason)
    report(
      ['as_of'],
      `${figure.as_of} is ${age} days before the dataset date ${ctx.datasetDate}; figures of kind ${figure.kind} may be at most ${maxAge} days old`,
      'refresh the figure from its primary source (moving the old value into history), or say why no newer figure exists in stale_reason',
    );
});
