// Series under programmes: a series file (data/assets/series/<TFIN>.yaml) states what is its own;
// the record served is the programme's record with those facts in place. What a programme states
// once (issuer, custody, MiCA status and rationale, settlement, risk factors, minimum investment,
// maturity) is inherited; the series' contract per ledger, ISIN, validation and sources are its own.
import type { AssetRecord, SeriesRecord } from '../domain/asset.ts';
import type { Loaded, LoadedAsset } from '../dataset/loaded.ts';
import type { DataProblem } from './problems.ts';
import { problemAt } from './yaml-file.ts';

/** The record a series stands for: its programme's record with the series' own facts. */
export function resolveSeries(series: SeriesRecord, programme: AssetRecord): AssetRecord {
  const ownIds = new Set(series.sources.map((s) => s.id));
  return {
    ...programme,
    tfin: series.tfin,
    kind: 'series',
    programme: programme.tfin,
    underlying: series.underlying,
    name: series.name,
    short_name: series.short_name,
    tfic: series.tfic ?? programme.tfic,
    description: series.description ?? `${series.name}, a series of ${programme.name}.`,
    ledgers: series.ledgers,
    identifiers: series.identifiers,
    validation: series.validation,
    amount: null,
    amount_null_reason: `No amount is published for this series alone; ${programme.name} states none per series.`,
    dates: {
      launch_date: series.dates.launch_date,
      launch_null_reason: series.dates.launch_null_reason ?? null,
      maturity_date: programme.dates.maturity_date,
      maturity_null_reason: programme.dates.maturity_null_reason ?? null,
      end_date: null,
    },
    lifecycle_status: series.lifecycle_status,
    sources: [...series.sources, ...programme.sources.filter((s) => !ownIds.has(s.id))],
    as_of: series.as_of,
  };
}

/** Every valid series resolved against its programme; a missing or wrong programme is a problem. */
export function resolveAllSeries(
  assets: readonly LoadedAsset[],
  series: readonly Loaded<SeriesRecord>[],
  problems: DataProblem[],
): LoadedAsset[] {
  const byTfin = new Map(assets.map((a) => [a.record.tfin, a.record]));
  return series.flatMap(({ file, record }) => {
    const programme = byTfin.get(record.programme);
    if (!programme || programme.kind !== 'programme') {
      problems.push(
        problemAt(
          file,
          ['programme'],
          'series-programme',
          programme
            ? `names ${record.programme}, which is not a programme record`
            : `names ${record.programme}, which is not in data/assets/`,
          programme
            ? `add "kind: programme" to data/assets/${record.programme}.yaml, or name the programme this series belongs to`
            : 'name the TFIN of the programme record (data/assets/<TFIN>.yaml with kind: programme)',
        ),
      );
      return [];
    }
    return [{ file, record: resolveSeries(record, programme) }];
  });
}
