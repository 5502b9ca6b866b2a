// The exact bytes of each dataset response. Astro's endpoints and our server's fast path both
// call these, so a body is the same whoever serves it.
import type { AssetProfile } from '../domain/api.ts';
import type { HistoryPoint } from '../domain/common.ts';
import type { MicaStatusBody, StablecoinsBody } from '../domain/api-market.ts';
import { datasetMeta, type DatasetCore } from '../dataset/artifact.ts';
import { filterCoins } from './market-query.ts';

export function serialise(body: unknown): string {
  return JSON.stringify(body);
}

export interface ProfileOptions {
  /** The selector that found the asset (default: its TFIN). */
  matched?: { parameter: 'tfin' | 'isin' | 'contract' | 'dti'; value: string };
  /** `include=history`: the amount's previous values; absent, the body omits `amount.history`. */
  history?: readonly HistoryPoint[];
}

/**
 * A profile body. The default (TFIN, no history) is what the build packs; the other variants are
 * made from it by the same function, so the fast path and Astro's endpoint send the same bytes.
 */
export function assetProfileBody(
  dataset: Pick<DatasetCore, 'dataset_version' | 'generated_at' | 'as_of' | 'freshness'>,
  profile: AssetProfile,
  options: ProfileOptions = {},
): string {
  let data = profile;
  if (profile.amount) {
    const { history: _stored, ...amount } = profile.amount;
    data = {
      ...profile,
      amount: options.history ? { ...amount, history: [...options.history] } : amount,
    };
  }
  const matched_by = options.matched ?? { parameter: 'tfin', value: profile.tfin };
  return serialise({ data, meta: { ...datasetMeta(dataset, profile.as_of), matched_by } });
}

/** The body a lookup answers with, made from the asset's stored (default) body. */
export function lookupBody(
  dataset: Pick<DatasetCore, 'dataset_version' | 'generated_at' | 'as_of' | 'freshness'>,
  stored: string,
  options: ProfileOptions,
): string {
  const profile = (JSON.parse(stored) as { data: AssetProfile }).data;
  return assetProfileBody(dataset, profile, options);
}

/** Without `include=history` a figure is served without its `history`. */
function withoutHistory<F extends { history?: unknown }>(figure: F): Omit<F, 'history'> {
  const { history: _omitted, ...rest } = figure;
  return rest;
}

export function stablecoinsBody(
  dataset: DatasetCore,
  q: Record<string, string> = {},
): StablecoinsBody {
  const m = dataset.market;
  const filtered = filterCoins(m.coins, q);
  const coins =
    q['include'] === 'history'
      ? filtered
      : filtered.map((c) => ({
          ...c,
          market_cap: withoutHistory(c.market_cap),
          circulating_supply: withoutHistory(c.circulating_supply),
        }));
  return {
    data: { stablecoins: coins, dominance: m.dominance, venues: m.venues },
    meta: {
      ...datasetMeta(dataset, m.as_of),
      count: coins.length,
      total: m.coins.length,
      scores_version: m.scores_version,
      query: q,
    },
  };
}

/** null when `member_state` names no EU member state. */
export function micaStatusBody(
  dataset: DatasetCore,
  q: Record<string, string> = {},
): MicaStatusBody | null {
  const m = dataset.mica;
  const picked = q['member_state']
    ? m.member_states.filter((s) => s.iso === q['member_state'])
    : m.member_states;
  if (q['member_state'] && picked.length === 0) return null;
  const since = q['changed_since'];
  const states = since ? picked.filter((s) => s.last_changed > since) : picked;
  return {
    data: {
      categories: m.categories,
      member_states: states,
      register: m.register,
      transitional_periods: m.transitional_periods,
      coverage: m.coverage,
    },
    meta: {
      ...datasetMeta(dataset, m.as_of),
      member_states: states.length,
      readiness_formula_version: m.readiness_formula_version,
      query: q,
    },
  };
}
