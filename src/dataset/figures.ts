// The dated figures of the data (asset amounts, stablecoin market caps and supplies) in one shape,
// so freshness, source quality and history are checked — and reported — the same way for all.
import type { AssetRecord } from '../domain/asset.ts';
import type { FigureKind } from '../domain/codes.ts';
import type { HistoryPoint, Source } from '../domain/common.ts';
import type { StablecoinRecord } from '../domain/market.ts';
import type { Loaded, LoadedAsset, LoadedMarket } from './loaded.ts';

export interface DatedFigure {
  item: Loaded<unknown>;
  at: (string | number)[];
  kind: FigureKind;
  value: number | null;
  as_of: string;
  source: string;
  stale_reason: string | null;
  history: readonly HistoryPoint[];
  sources: readonly Source[];
  /** Ended assets keep their final figure: it does not age. */
  ended: boolean;
}

/** Lifecycle statuses whose final figure does not age. */
export const ENDED = new Set(['matured', 'redeemed', 'closed']);

export function assetFigures(item: Loaded<AssetRecord>): DatedFigure[] {
  const { record } = item;
  if (!record.amount) return [];
  return [
    {
      item,
      at: ['amount'],
      kind: record.amount.kind,
      value: record.amount.value,
      as_of: record.amount.as_of,
      source: record.amount.source,
      stale_reason: record.amount.stale_reason ?? null,
      history: record.amount.history ?? [],
      sources: record.sources,
      ended: ENDED.has(record.lifecycle_status),
    },
  ];
}

/** A coin's known figures; a figure without a value has no date, so it neither ages nor counts. */
export function stablecoinFigures(item: Loaded<StablecoinRecord>): DatedFigure[] {
  const { record } = item;
  return (['market_cap', 'circulating_supply'] as const).flatMap((kind) => {
    const f = record[kind];
    if (f.value === null || f.as_of === null || f.source === null) return [];
    return [
      {
        item,
        at: [kind],
        kind,
        value: f.value,
        as_of: f.as_of,
        source: f.source,
        stale_reason: f.stale_reason ?? null,
        history: f.history ?? [],
        sources: record.sources,
        ended: false,
      },
    ];
  });
}

/** Every figure of the data; records that failed their schema are left to the schema's report. */
export function allFigures(ctx: {
  assets: readonly LoadedAsset[];
  market: LoadedMarket | null;
}): DatedFigure[] {
  return [
    ...ctx.assets.filter((a) => !a.schemaFailed).flatMap(assetFigures),
    ...(ctx.market?.stablecoins ?? []).filter((c) => !c.schemaFailed).flatMap(stablecoinFigures),
  ];
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
