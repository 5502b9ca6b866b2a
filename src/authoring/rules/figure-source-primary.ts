// The rule `figure-source-primary` (npm run data:check).
import { PRIMARY_SOURCE_KINDS } from '../../domain/common.ts';
import { figureCheck } from './rule.ts';

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
