// Lookups from memory: hits from the prebuilt bytes, misses and bad input as problems built by
// the same functions as Astro's endpoint (which answers everything when FAST_PATH=off). Every
// answer is remembered with its target (a miss asks the suggestion index once).
import { answerLookup } from '../../dataset/lookup-answer.ts';
import { precompute } from '../precomputed.ts';
import type { Prebuilt } from '../prebuilt.ts';
import { prepareProblem, sendPrecomputed, sendPreparedProblem } from '../respond.ts';
import type { RequestContext } from '../steps/context.ts';
import type { Memo } from '../steps/memo.ts';
import { DATA_CACHE, IMMUTABLE_CACHE } from './cache-control.ts';
import type { Releases } from './dataset-view.ts';

export const LOOKUP_PATH = '/v1/registry/asset';

export function lookupAnswer(prebuilt: Prebuilt, releases: Releases, memo: Memo) {
  return function registryAsset(ctx: RequestContext): void {
    const { req, res } = ctx;
    const lookup = answerLookup(new URLSearchParams(ctx.search), prebuilt.registry, releases);
    const path = LOOKUP_PATH;
    if (!lookup.ok) {
      const problem = prepareProblem(lookup.problem);
      memo.set(ctx.url, { path, problem });
      return sendPreparedProblem(req, res, ctx, problem);
    }
    // A TFIN without include= is the packed body; another selector, include=history or an older
    // release is made once per target (the same function as Astro's endpoint) and remembered.
    const body =
      lookup.body === undefined
        ? prebuilt.profile(lookup.tfin)!
        : precompute(lookup.body, 'application/json', { effort: 'fast', eager: false });
    const cacheControl = lookup.immutable ? IMMUTABLE_CACHE : DATA_CACHE;
    memo.set(ctx.url, { path, body, cacheControl });
    sendPrecomputed(req, res, ctx, body, { cacheControl });
  };
}
