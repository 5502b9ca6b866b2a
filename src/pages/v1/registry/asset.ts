// GET /v1/registry/asset?tfin= — on demand. Our server answers hits from the prebuilt bytes;
// this endpoint is the authority for every answer: it serves misses and bad input, and for a hit
// serialises the profile afresh (a test checks both paths send the same bytes).
import type { APIRoute } from 'astro';
import type { AssetProfile } from '../../../domain/api.ts';
import { readDataset, readProfiles } from '../../../dataset/artifact.ts';
import { assetProfileBody } from '../../../dataset/bodies.ts';
import { readParams } from '../../../dataset/params.ts';
import { LOOKUP_PARAMS, closestTfins } from '../../../dataset/registry-lookup.ts';
import { registryRuntime, type RegistryRuntime } from '../../../dataset/registry-runtime.ts';
import { problemResponse } from '../../../http/problem-response.ts';

export const prerender = false;

let fallback: RegistryRuntime | undefined;

/** Outside our server (astro dev), read the built files once. */
function standalone(): RegistryRuntime {
  const core = readDataset();
  const bodies = new Map([...readProfiles()].map((p) => [p.tfin, assetProfileBody(core, p)]));
  return registryRuntime(core, (tfin) => bodies.get(tfin));
}

export const GET: APIRoute = ({ url, locals }) => {
  const registry = locals.registry ?? (fallback ??= standalone());
  const instance = locals.requestId;
  const params = readParams(url.searchParams, LOOKUP_PARAMS);
  if (!params.ok)
    return problemResponse(
      params.problem.code,
      params.problem.detail,
      instance,
      params.problem.extensions,
    );
  const tfin = params.values['tfin'];
  if (!tfin) {
    return problemResponse(
      'missing_parameter',
      'The query parameter "tfin" is required, e.g. ?tfin=TFIN-FUND-ETH-2024-0001.',
      instance,
      {
        errors: [{ parameter: 'tfin', message: 'is required' }],
      },
    );
  }
  const stored = registry.bodyOf(tfin);
  if (!stored) {
    const suggestions = closestTfins(registry.tfins(), tfin);
    return problemResponse(
      'asset_not_found',
      `No verified asset has the TFIN ${tfin}. Closest known: ${suggestions.join(', ')}.`,
      instance,
      { suggestions },
    );
  }
  const profile = (JSON.parse(stored) as { data: AssetProfile }).data;
  return new Response(assetProfileBody(registry.core, profile), {
    headers: { 'Content-Type': 'application/json' },
  });
};
