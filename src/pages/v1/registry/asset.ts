// GET /v1/registry/asset?tfin= — on demand. Our server answers hits from the prebuilt bytes;
// this endpoint is the authority for every answer: it serves misses and bad input, and for a hit
// serialises the profile afresh (a test checks both paths send the same bytes).
import type { APIRoute } from 'astro';
import type { AssetProfile } from '../../../domain/api.ts';
import { readDataset, readProfiles } from '../../../dataset/artifact.ts';
import { assetProfileBody } from '../../../dataset/bodies.ts';
import { resolveLookup, suggestTfins } from '../../../dataset/registry-lookup.ts';
import { registryRuntime, type RegistryRuntime } from '../../../dataset/registry-runtime.ts';
import { problemResponse } from '../../../http/problem-response.ts';

export const prerender = false;

let fallback: RegistryRuntime | undefined;

/** Outside our server (astro dev), read the built files once. */
function standalone(): RegistryRuntime {
  const core = readDataset();
  const bodies = new Map([...readProfiles()].map((p) => [p.tfin, assetProfileBody(core, p)]));
  return registryRuntime(core, (tfin) => bodies.get(tfin), bodies);
}

export const GET: APIRoute = ({ url, locals }) => {
  const registry = locals.registry ?? (fallback ??= standalone());
  const instance = locals.requestId;
  const lookup = resolveLookup(url.searchParams, registry.has, (tfin) =>
    suggestTfins(registry, tfin),
  );
  if (!lookup.ok)
    return problemResponse(
      lookup.problem.code,
      lookup.problem.detail,
      instance,
      lookup.problem.extensions,
    );
  const stored = registry.bodyOf(lookup.tfin)!;
  const profile = (JSON.parse(stored) as { data: AssetProfile }).data;
  return new Response(assetProfileBody(registry.core, profile), {
    headers: { 'Content-Type': 'application/json' },
  });
};
