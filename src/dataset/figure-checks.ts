// Figures: each rests on a primary source, is younger than its kind's maximum age at the dataset
// date (or says why not), and keeps its predecessors in date order.
import { PRIMARY_SOURCE_KINDS } from '../domain/common.ts';
import type { DataCheck } from './checks.ts';
import { allFigures, daysBetween, type DatedFigure } from './figures.ts';
import type { DataProblem } from './problems.ts';
import { problemAt } from './yaml-file.ts';

type FigureReport = (at: (string | number)[], message: string, fix: string) => void;

function figureCheck(
  name: string,
  fn: (figure: DatedFigure, ctx: Parameters<DataCheck['run']>[0], report: FigureReport) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      for (const figure of allFigures(ctx))
        fn(figure, ctx, (at, message, fix) =>
          problems.push(problemAt(figure.item.file, [...figure.at, ...at], name, message, fix)),
        );
      return problems;
    },
  };
}

const primary = new Set<string>(PRIMARY_SOURCE_KINDS);

export const figureSourcePrimary = figureCheck('figure-source-primary', (figure, _ctx, report) => {
  // A null figure (with its reason) rests on nothing; its history points still need primary sources.
  const cited: [(string | number)[], string][] = [
    ...(figure.value === null
      ? []
      : [[['source'], figure.source] as [(string | number)[], string]]),
    ...figure.history.map((h, i): [(string | number)[], string] => [
      ['history', i, 'source'],
      h.source,
    ]),
  ];
  for (const [at, id] of cited) {
    const source = figure.sources.find((s) => s.id === id);
    // An unknown id in the current figure is the reference check's; history ids are checked here.
    if (!source) {
      if (at[0] === 'history')
        report(
          at,
          `names "${id}", which is not a source of this record`,
          'add the source to sources, or correct the id',
        );
      continue;
    }
    if (!primary.has(source.kind) && !source.secondary_reason)
      report(
        at,
        `rests on "${id}", a ${source.kind} source`,
        "cite the primary record (issuer, regulator, CSD or transfer agent, ledger explorer, the aggregator itself); if a news item is the only public record, say so in the source's secondary_reason",
      );
  }
});

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

export const figureHistoryOrdered = figureCheck(
  'figure-history-ordered',
  (figure, _ctx, report) => {
    let newer = figure.as_of;
    figure.history.forEach((point, i) => {
      if (point.as_of >= newer)
        report(
          ['history', i, 'as_of'],
          `${point.as_of} is not older than the value before it (${newer})`,
          'history lists previous values newest first, each older than the one above it',
        );
      newer = point.as_of < newer ? point.as_of : newer;
    });
  },
);

export const FIGURE_CHECKS: readonly DataCheck[] = [
  figureSourcePrimary,
  figureFreshness,
  figureHistoryOrdered,
];
