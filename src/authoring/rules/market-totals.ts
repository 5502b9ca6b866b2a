// The rule `market-totals` (npm run data:check): every whole-market total in
// data/stablecoin-market-totals.yaml cites a source of its file that is primary (or a news item
// that says why it stands for the figure), is not dated after the dataset date, appears once, and
// splits only into coins the data names.
import { PRIMARY_SOURCE_KINDS } from '../../domain/common.ts';
import type { MarketTotalsFile } from '../../domain/market.ts';
import { coins, perRecord, reportFutureDates, type CheckContext } from './rule.ts';

const primary = new Set<string>(PRIMARY_SOURCE_KINDS);
const totalsFile = (ctx: CheckContext) => (ctx.market?.totals ? [ctx.market.totals] : []);

export const marketTotals = perRecord<MarketTotalsFile>(
  'market-totals',
  totalsFile,
  ({ record }, ctx, report) => {
    const sources = new Map(record.sources.map((s) => [s.id, s]));
    const coinIds = new Set(coins(ctx).map((c) => c.record.id));
    const seen = new Set<string>();
    record.totals.forEach((t, i) => {
      if (seen.has(t.id))
        report(['totals', i, 'id'], `"${t.id}" is used twice`, 'give each total its own id');
      seen.add(t.id);
      const source = sources.get(t.source);
      if (!source)
        report(
          ['totals', i, 'source'],
          `names "${t.source}", which is not a source in this file`,
          `use one of: ${[...sources.keys()].join(', ')}`,
        );
      else if (!primary.has(source.kind) && !source.secondary_reason)
        report(
          ['totals', i, 'source'],
          `rests on "${t.source}", a ${source.kind} source`,
          "cite the aggregator's or issuer's own record; if a news item is the only public record of the total, say so in the source's secondary_reason",
        );
      reportFutureDates([[['totals', i, 'as_of'], t.as_of]], ctx.datasetDate, report);
      (t.stated_split ?? []).forEach((s, k) => {
        if (!coinIds.has(s.coin))
          report(
            ['totals', i, 'stated_split', k, 'coin'],
            `names "${s.coin}", which is not a stablecoin of data/stablecoins`,
            'use the id of the coin as its file is named (e.g. usdt, usdc)',
          );
      });
    });
  },
);
