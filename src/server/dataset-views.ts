// Filtered views of the prerendered datasets, computed on request from the same dataset and
// functions that produced the prebuilt bytes. With no query the prebuilt bytes are served.
import type { DatasetCore } from '../dataset/artifact.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { micaStatusBody, serialise, stablecoinsBody } from '../dataset/bodies.ts';
import { STABLECOIN_PARAMS } from '../dataset/market-view.ts';
import { MICA_PARAMS } from '../dataset/mica-view.ts';
import { readParams, type ParamProblem, type ParamSpec } from '../dataset/params.ts';
import { registryList, registryListParams, type RegistrySource } from '../dataset/registry-list.ts';

export type ViewResult = { ok: true; json: string } | { ok: false; problem: ParamProblem };

export interface DatasetView {
  specs: ParamSpec[];
  compute(values: Record<string, string>): ViewResult;
}

/**
 * Summaries kept between list requests (oldest out). A summary is read back from the asset's
 * prebuilt body (a JSON.parse of the whole profile, ~0.1 ms), which made a 100-row page cost
 * ~10 ms; pages of popular orders share their rows, so most rows come from here.
 */
const SUMMARY_CACHE = 2048;

function withSummaryCache(registry: RegistrySource): RegistrySource {
  const cache = new BoundedMap<string, ReturnType<RegistrySource['summaryOf']>>(SUMMARY_CACHE);
  return {
    core: registry.core,
    summaryOf(tfin) {
      let summary = cache.get(tfin);
      if (!summary) cache.set(tfin, (summary = registry.summaryOf(tfin)));
      return summary;
    },
  };
}

export function datasetViews(
  dataset: DatasetCore,
  source: RegistrySource,
): Map<string, DatasetView> {
  const registry = withSummaryCache(source);
  const euStates = dataset.mica.member_states.map((s) => s.iso);
  return new Map<string, DatasetView>([
    [
      '/v1/registry/assets',
      {
        specs: registryListParams(dataset),
        compute(values) {
          const result = registryList(registry, values);
          if (result.ok) return { ok: true, json: serialise(result.body) };
          return {
            ok: false,
            problem: {
              code: 'invalid_cursor',
              detail: 'The cursor does not belong to this query; start again without "cursor".',
              extensions: {
                errors: [{ parameter: 'cursor', message: 'was not issued for this query' }],
              },
            },
          };
        },
      },
    ],
    [
      '/v1/market/stablecoins',
      {
        specs: STABLECOIN_PARAMS,
        compute: (values) => ({ ok: true, json: serialise(stablecoinsBody(dataset, values)) }),
      },
    ],
    [
      '/v1/compliance/mica-status',
      {
        specs: MICA_PARAMS,
        compute(values) {
          const body = micaStatusBody(dataset, values);
          if (body) return { ok: true, json: serialise(body) };
          return {
            ok: false,
            problem: {
              code: 'member_state_not_found',
              detail: `${values['member_state']} is not an EU member state. Use one of: ${euStates.join(', ')}.`,
              extensions: { allowed: euStates },
            },
          };
        },
      },
    ],
  ]);
}

/**
 * Reads a view's query once: its values and the normalised form (sorted `k=v`) that equal
 * queries share, so one cached body serves them all.
 */
export function readView(
  view: DatasetView,
  search: string,
):
  { ok: true; values: Record<string, string>; key: string } | { ok: false; problem: ParamProblem } {
  const params = readParams(new URLSearchParams(search), view.specs);
  if (!params.ok) return params;
  const key = Object.keys(params.values)
    .sort()
    .map((k) => `${k}=${params.values[k]}`)
    .join('&');
  return { ok: true, values: params.values, key };
}
