// GET /v1/registry/asset?tfin= (or isin, contract, dti) — on demand. Our server answers hits from
// the prebuilt bytes; this endpoint is the authority for every answer: it serves misses and bad
// input, and for a hit makes the body afresh (a test checks both paths send the same bytes).
import type { APIRoute } from 'astro';
import { datasetPath, readDataset, readProfiles } from '../../../dataset/artifact.ts';
import { assetProfileBody, lookupBody } from '../../../api/bodies.ts';
import { answerLookup } from '../../../api/lookup-answer.ts';
import { openReleases, type Releases } from '../../../api/releases.ts';
import { registryRuntime, type RegistryRuntime } from '../../../api/registry-runtime.ts';
import type { HistoryPoint } from '../../../domain/common.ts';
import { problemResponse } from '../../../http/problem-response.ts';

export const prerender = false;

let fallback: RegistryRuntime | undefined;

/** Outside our server (astro dev), read the built files once. */
function standalone(): RegistryRuntime {
  const core = readDataset();
  const profiles = [...readProfiles()];
  const bodies = new Map(profiles.map((p) => [p.tfin, assetProfileBody(core, p)]));
  const histories = new Map<string, HistoryPoint[]>(
    profiles.map((p) => [p.tfin, p.amount?.history ?? []]),
  );
  return registryRuntime(
    core,
    (tfin) => bodies.get(tfin),
    bodies,
    (tfin) => histories.get(tfin) ?? [],
  );
}

let releases: { version: string; releases: Releases } | undefined;

/** The kept older releases (dataset_version=), opened once per current release. */
function releasesOf(registry: RegistryRuntime): Releases {
  const current = registry.core.dataset_version;
  if (releases?.version !== current)
    releases = { version: current, releases: openReleases(datasetPath(), current) };
  return releases.releases;
}

export const GET: APIRoute = ({ url, locals }) => {
  const registry = locals.registry ?? (fallback ??= standalone());
  const instance = locals.requestId;
  const lookup = answerLookup(url.searchParams, registry, releasesOf(registry));
  if (!lookup.ok)
    return problemResponse(
      lookup.problem.code,
      lookup.problem.detail,
      instance,
      lookup.problem.extensions,
    );
  const body = lookup.body ?? lookupBody(registry.core, registry.bodyOf(lookup.tfin)!, {});
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
};
