// The exact bytes of each dataset response. Astro's endpoints and our server's fast path both
// call these, so a body is the same whoever serves it.
import type { AssetProfile } from '../domain/api.ts';
import type { MicaStatusBody, StablecoinsBody } from '../domain/api-market.ts';
import { datasetMeta, type DatasetCore } from './artifact.ts';
import { filterCoins } from './market-view.ts';
import { registryList, type RegistrySource } from './registry-list.ts';

export function serialise(body: unknown): string {
  return JSON.stringify(body);
}

export function assetProfileBody(
  dataset: Pick<DatasetCore, 'dataset_version' | 'generated_at' | 'as_of' | 'freshness'>,
  profile: AssetProfile,
): string {
  return serialise({ data: profile, meta: datasetMeta(dataset, profile.as_of) });
}

export function defaultRegistryListBody(source: RegistrySource): string {
  const result = registryList(source, {});
  if (!result.ok) throw new Error('the default registry view cannot fail');
  return serialise(result.body);
}

export function stablecoinsBody(
  dataset: DatasetCore,
  q: Record<string, string> = {},
): StablecoinsBody {
  const m = dataset.market;
  const coins = filterCoins(m.coins, q);
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
  const states = q['member_state']
    ? m.member_states.filter((s) => s.iso === q['member_state'])
    : m.member_states;
  if (q['member_state'] && states.length === 0) return null;
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
