// The exact bytes of each dataset response. Astro's endpoints and our server's fast path both
// call these, so a body is the same whoever serves it.
import type { AssetProfile } from '../domain/api.ts';
import { datasetMeta, type Dataset } from './artifact.ts';
import { registryList } from './registry-list.ts';

export function serialise(body: unknown): string {
  return JSON.stringify(body);
}

export function assetProfileBody(dataset: Dataset, profile: AssetProfile): string {
  return serialise({ data: profile, meta: datasetMeta(dataset) });
}

export function defaultRegistryListBody(dataset: Dataset): string {
  const result = registryList(dataset, {});
  if (!result.ok) throw new Error('the default registry view cannot fail');
  return serialise(result.body);
}
