// What each chart draws, taken from the built dataset core (the same object the API's prebuilt
// bodies are made from). Pure functions; they read the MiCA and market sections defensively, so a
// change of those shapes degrades a chart to "no data" instead of breaking the build.
import type { DatasetCore } from '../dataset/artifact.ts';
import type { SeriesPoint } from './sparkline.ts';

export interface Count {
  key: string;
  label: string;
  count: number;
}

function counted(keys: Iterable<string>, names: Map<string, string>): Count[] {
  const n = new Map<string, number>();
  for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
  return [...n]
    .map(([key, count]) => ({ key, label: names.get(key) ?? key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** Assets per TFIC asset class (each asset has one class). */
export function registryByClass(core: DatasetCore): Count[] {
  const names = new Map(core.codes.tfic.classes.map((c) => [c.code, c.name]));
  return counted(
    core.registry.rows.map((r) => r.asset_class),
    names,
  );
}

/** Assets per ledger: an asset issued on several ledgers counts once on each. */
export function registryByLedger(core: DatasetCore): Count[] {
  const names = new Map(core.codes.ledgers.ledgers.map((l) => [l.code, l.name]));
  return counted(
    core.registry.rows.flatMap((r) => [...new Set(r.ledgers)]),
    names,
  );
}

export interface Share {
  key: string;
  label: string;
  share_pct: number;
  /** The compared value: circulating supply at par (in USD overall, in the peg currency within a peg). */
  value: number;
  currency: string;
  /** The date of the compared figure, for a coin. */
  as_of?: string;
}

/** Dominance of each compared coin (dominance.overall, circulating supply at par in USD). */
export function dominanceByCoin(core: DatasetCore): Share[] {
  return (core.market.dominance?.overall ?? []).map((e) => ({
    key: e.id,
    label: e.symbol,
    share_pct: e.share_pct,
    value: e.value_usd,
    currency: 'USD',
    as_of: e.as_of,
  }));
}

/**
 * Each compared coin's share of the whole market (dominance.overall's market_share_pct against the
 * dated market total), and the rest of the market as one row: empty without a market total.
 */
export function marketShareByCoin(core: DatasetCore): Share[] {
  const d = core.market.dominance;
  const total = d?.market_total;
  if (!d || !total) return [];
  const rows = d.overall.flatMap((e) =>
    e.market_share_pct === null
      ? []
      : [
          {
            key: e.id,
            label: e.symbol,
            share_pct: e.market_share_pct,
            value: e.value_usd,
            currency: 'USD',
            as_of: e.as_of,
          },
        ],
  );
  const counted = rows.reduce((n, r) => n + r.value, 0);
  const rest = Math.max(0, total.value_usd - counted);
  return [
    ...rows,
    {
      key: 'rest-of-market',
      label: 'Rest of the market',
      share_pct: Math.round((rest / total.value_usd) * 10_000) / 100,
      value: rest,
      currency: 'USD',
      as_of: total.as_of,
    },
  ];
}

/** Dominance of each peg currency among the compared coins (dominance.peg_groups). */
export function dominanceByPegCurrency(core: DatasetCore): Share[] {
  return (core.market.dominance?.peg_groups ?? [])
    .flatMap((g) =>
      g.coins_compared > 0 && g.share_pct !== null ? [{ ...g, share_pct: g.share_pct }] : [],
    )
    .map((g) => ({
      key: g.currency,
      label: g.currency,
      share_pct: g.share_pct,
      value: g.total_usd,
      currency: 'USD',
    }))
    .sort((a, b) => b.share_pct - a.share_pct || a.key.localeCompare(b.key));
}

/** Dominance within each peg currency (dominance.by_peg, in the peg currency), by currency. */
export function dominanceWithinPeg(core: DatasetCore): { currency: string; shares: Share[] }[] {
  const byPeg = (core.market.dominance?.by_peg ?? {}) as Record<
    string,
    | { id: string; symbol: string; circulating_supply: number; as_of: string; share_pct: number }[]
    | undefined
  >;
  return Object.keys(byPeg)
    .sort()
    .map((currency) => ({
      currency,
      shares: (byPeg[currency] ?? []).map((e) => ({
        key: e.id,
        label: e.symbol,
        share_pct: e.share_pct,
        value: e.circulating_supply,
        currency,
        as_of: e.as_of,
      })),
    }))
    .filter((g) => g.shares.length > 0);
}

export interface StateScore {
  iso: string;
  name: string;
  score: number | null;
  /** Component key → points, when the section carries them. */
  components: Record<string, number>;
}

type LooseState = {
  iso?: unknown;
  name?: unknown;
  readiness?: { score?: unknown; components?: Record<string, { points?: unknown } | undefined> };
  readiness_score?: unknown;
};

/** Each member state's readiness score and the points of its components. */
export function readinessByState(core: DatasetCore): StateScore[] {
  const states = (core.mica?.member_states ?? []) as unknown as LooseState[];
  return states
    .filter((s) => typeof s.iso === 'string')
    .map((s) => {
      const raw = s.readiness?.score ?? s.readiness_score;
      const components: Record<string, number> = {};
      for (const [k, c] of Object.entries(s.readiness?.components ?? {}))
        if (typeof c?.points === 'number') components[k] = c.points;
      return {
        iso: s.iso as string,
        name: typeof s.name === 'string' ? s.name : (s.iso as string),
        score: typeof raw === 'number' ? raw : null,
        components,
      };
    })
    .sort((a, b) => a.iso.localeCompare(b.iso));
}

/** The readiness components in the order of the formula, with their names. */
export const READINESS_PARTS = [
  { key: 'competent_authority', label: 'Competent authority' },
  { key: 'national_measures', label: 'National measures' },
  { key: 'transitional_period_months', label: 'Transitional period' },
  { key: 'authorised_casps', label: 'Authorised CASPs' },
  { key: 'emt_issuers', label: 'EMT issuers' },
  { key: 'dlt_pilot_infrastructures', label: 'DLT Pilot infrastructures' },
] as const;

export interface History {
  key: string;
  label: string;
  kind: string;
  currency: string;
  /** Newest first, as the data keeps them: the current figure, then its history. */
  points: (SeriesPoint & { source: string })[];
}

type LooseFigure = {
  kind?: string;
  value?: number | null;
  currency?: string;
  as_of?: string;
  source?: string;
  history?: { value?: number | null; as_of?: string; source?: string }[];
};

/** A figure with at least one earlier value: its current value and history as one series. */
export function figureHistory(
  key: string,
  label: string,
  figure: LooseFigure | null | undefined,
  fallbackKind: string,
): History | null {
  if (!figure || typeof figure.value !== 'number' || !figure.as_of) return null;
  const earlier = (figure.history ?? []).filter(
    (h): h is { value: number; as_of: string; source?: string } =>
      typeof h.value === 'number' && typeof h.as_of === 'string',
  );
  if (earlier.length === 0) return null;
  return {
    key,
    label,
    kind: figure.kind ?? fallbackKind,
    currency: figure.currency ?? '',
    points: [
      { value: figure.value, as_of: figure.as_of, source: figure.source ?? '' },
      ...earlier.map((h) => ({ value: h.value, as_of: h.as_of, source: h.source ?? '' })),
    ],
  };
}

/** Stablecoins whose market capitalisation has history. */
export function stablecoinHistories(core: DatasetCore): History[] {
  return core.market.coins
    .map((c) =>
      figureHistory(c.id, `${c.symbol} (${c.name})`, c.market_cap as LooseFigure, 'market_cap'),
    )
    .filter((h): h is History => h !== null);
}

/** Assets whose amount (AUM, outstanding, issued) has history, most points first. */
export function assetHistories(
  profiles: Iterable<{ tfin: string; name: string; amount?: unknown }>,
  limit = 12,
): History[] {
  const found: History[] = [];
  for (const p of profiles) {
    const h = figureHistory(p.tfin, p.name, p.amount as LooseFigure | null, 'amount');
    if (h) found.push(h);
  }
  return found
    .sort((a, b) => b.points.length - a.points.length || a.key.localeCompare(b.key))
    .slice(0, limit);
}
