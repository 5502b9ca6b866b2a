// GET /v1/registry/asset?tfin= — on demand. Our server answers hits from the prebuilt bytes;
// this endpoint is the authority for every answer and serves misses and bad input.
import type { APIRoute } from 'astro';
import { readDataset } from '../../../dataset/artifact.ts';
import { assetProfileBody } from '../../../dataset/bodies.ts';
import { readParams } from '../../../dataset/params.ts';
import {
  LOOKUP_PARAMS,
  closestTfins,
  indexRegistry,
  type RegistryIndex,
} from '../../../dataset/registry-lookup.ts';
import { problemResponse } from '../../../http/problem-response.ts';

export const prerender = false;

let fallback: RegistryIndex | undefined;

export const GET: APIRoute = ({ url, locals }) => {
  const registry = locals.registry ?? (fallback ??= indexRegistry(readDataset()));
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
  if (!tfin)
    return problemResponse(
      'missing_parameter',
      'The query parameter "tfin" is required, e.g. ?tfin=TFIN-FUND-ETH-2024-0001.',
      instance,
      { errors: [{ parameter: 'tfin', message: 'is required' }] },
    );
  const profile = registry.byTfin.get(tfin);
  if (!profile) {
    const suggestions = closestTfins(registry, tfin);
    return problemResponse(
      'asset_not_found',
      `No verified asset has the TFIN ${tfin}. Closest known: ${suggestions.join(', ')}.`,
      instance,
      { suggestions },
    );
  }
  return new Response(assetProfileBody(registry.dataset, profile), {
    headers: { 'Content-Type': 'application/json' },
  });
};
