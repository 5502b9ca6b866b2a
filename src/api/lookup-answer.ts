// The whole answer to a lookup (endpoint 2), for the fast path and Astro's endpoint alike: the
// release it reads (the current one, or a kept older one named by `dataset_version`), the asset
// it selects, and its body, or the problem to send.
import type { RegistryRuntime } from './registry-runtime.ts';
import { assetProfileBody, lookupBody, type ProfileOptions } from './bodies.ts';
import { readParams, type ParamProblem } from './params.ts';
import { LOOKUP_PARAMS, finderOf, resolveRead, suggestTfins } from './registry-lookup.ts';
import { unknownVersionProblem, type ReleaseFacts, type Releases } from './releases.ts';

export type LookupAnswer =
  /** The current release's packed body of this TFIN (no other selector, no include). */
  | { ok: true; tfin: string; body?: undefined; immutable: boolean; release?: undefined }
  /** `release`: the older release the body comes from (`dataset_version=`). */
  | { ok: true; tfin: string; body: string; immutable: boolean; release?: ReleaseFacts }
  | { ok: false; problem: ParamProblem };

export function answerLookup(
  query: URLSearchParams,
  registry: RegistryRuntime,
  releases: Releases | null,
): LookupAnswer {
  // Read once: the dataset version picks the release, the selector the asset.
  const params = readParams(query, LOOKUP_PARAMS);
  const version = params.ok ? params.values['dataset_version'] : undefined;
  const immutable = version !== undefined;
  const release =
    version && version !== registry.core.dataset_version ? (releases?.get(version) ?? null) : null;
  if (version && version !== registry.core.dataset_version && !release) {
    return {
      ok: false,
      problem: releases
        ? unknownVersionProblem(version, releases)
        : {
            code: 'dataset_version_not_found',
            detail: `The dataset version ${version} is not kept by this deployment. Available: ${registry.core.dataset_version}.`,
            extensions: { allowed: [registry.core.dataset_version] },
          },
    };
  }
  const lookup = release
    ? resolveRead(
        query,
        params,
        (tfin) => release.profile(tfin) !== undefined,
        (tfin) => suggestTfins(release, tfin),
        finderOf(release.core.registry.rows),
      )
    : resolveRead(
        query,
        params,
        registry.has,
        (tfin) => suggestTfins(registry, tfin),
        finderOf(registry.core.registry.rows),
      );
  if (!lookup.ok) return lookup;
  const { tfin } = lookup;
  if (release) {
    const profile = release.profile(tfin)!;
    const options: ProfileOptions = {
      ...(lookup.matched ? { matched: lookup.matched } : {}),
      ...(lookup.history ? { history: profile.amount?.history ?? [] } : {}),
    };
    const body = assetProfileBody(release.core, profile, options);
    return { ok: true, tfin, body, immutable, release: release.facts };
  }
  if (!lookup.matched && !lookup.history) return { ok: true, tfin, immutable };
  const body = lookupBody(registry.core, registry.bodyOf(tfin)!, {
    ...(lookup.matched ? { matched: lookup.matched } : {}),
    ...(lookup.history ? { history: registry.historyOf(tfin) } : {}),
  });
  return { ok: true, tfin, body, immutable };
}
