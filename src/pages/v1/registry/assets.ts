// GET /v1/registry/assets — prerendered: the default view's bytes are produced at build.
// Filtered and paged views are computed on request by our server from the same functions.
import type { APIRoute } from 'astro';
import type { AssetProfile } from '../../../domain/api.ts';
import { readDataset, readProfiles } from '../../../dataset/artifact.ts';
import { defaultRegistryListBody } from '../../../api/bodies.ts';
import { DEFAULT_LIMIT } from '../../../api/registry-list.ts';
import { assetSummary } from '../../../dataset/views.ts';

export const prerender = true;

export const GET: APIRoute = () => {
  const core = readDataset();
  // The default page is the first DEFAULT_LIMIT assets by TFIN: the profiles file's first lines.
  const first = new Map<string, AssetProfile>();
  for (const p of readProfiles(undefined, DEFAULT_LIMIT)) first.set(p.tfin, p);
  const body = defaultRegistryListBody({
    core,
    summaryOf: (tfin) => assetSummary(first.get(tfin)!),
  });
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
};
