// The prerendered datasets: prebuilt bytes without a query (remembered per target), a computed
// view with one (built and compressed once per normalised query, kept in a bounded LRU).
import { MEDIA_TYPES, type Format } from '../../dataset/bulk.ts';
import { unknownVersionProblem, type openReleases } from '../../dataset/releases.ts';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { bulkLines } from '../bulk-lines.ts';
import { datasetViews, readView, type DatasetView } from '../dataset-views.ts';
import { precompute, type Precomputed } from '../precomputed.ts';
import type { Prebuilt } from '../prebuilt.ts';
import { negotiateFormat, sendParamProblem, sendPrecomputed } from '../respond.ts';
import type { RequestContext } from '../steps/context.ts';
import type { Memo } from '../steps/memo.ts';

export type Releases = ReturnType<typeof openReleases>;
import { DATA_CACHE, IMMUTABLE_CACHE, VARY_ACCEPT } from './cache-control.ts';

/** Computed (filtered) views kept in memory, least recently used first out. */
const VIEW_CACHE_ENTRIES = 256;
/** Computed views longer than this (characters) are not cached (large CSV / NDJSON selections). */
const MAX_CACHED_VIEW_CHARS = 2_000_000;

export type DatasetAnswer = (ctx: RequestContext) => boolean;

export function datasetAnswer(prebuilt: Prebuilt, releases: Releases, memo: Memo): DatasetAnswer {
  const registryExports = prebuilt.bulk.get('/v1/registry/assets');
  const views = datasetViews(
    prebuilt.core,
    prebuilt.registry,
    registryExports && {
      csv: bulkLines(registryExports.csv, 'csv'),
      ndjson: bulkLines(registryExports.ndjson, 'ndjson'),
    },
  );
  /** Views of older releases (dataset_version=), made on first use; one release at a time. */
  const releaseViews = new BoundedMap<string, Map<string, DatasetView>>(1);
  const viewCache = new BoundedMap<string, Precomputed>(VIEW_CACHE_ENTRIES);

  /** False when `ctx.path` is not a dataset view. */
  return function datasetView(ctx) {
    const { req, res, path, search } = ctx;
    const view = views.get(path);
    const prebuiltBody = prebuilt.views.get(path);
    const bulk = prebuilt.bulk.get(path);
    if (!view || !prebuiltBody || !bulk) return false;
    const sendView = (body: Precomputed, cacheControl = DATA_CACHE) =>
      sendPrecomputed(req, res, ctx, body, { cacheControl, vary: VARY_ACCEPT });
    if (search === '' || search === '?') {
      memo.set(ctx.url, { path, body: prebuiltBody, alternates: bulk, vary: VARY_ACCEPT });
      const format = negotiateFormat(req.headers.accept);
      sendView(format === 'json' ? prebuiltBody : bulk[format]);
      return true;
    }
    const query = readView(view, search);
    if (!query.ok) {
      sendParamProblem(req, res, ctx, query.problem);
      return true;
    }
    // dataset_version: the current release (immutable caching) or a kept older one.
    const version = query.values['dataset_version'];
    let active = view;
    if (version && version !== prebuilt.core.dataset_version) {
      const release = releases.get(version);
      if (!release) {
        sendParamProblem(req, res, ctx, unknownVersionProblem(version, releases));
        return true;
      }
      let old = releaseViews.get(version);
      if (!old) releaseViews.set(version, (old = datasetViews(release.core, release.source)));
      active = old.get(path)!;
    }
    const cacheControl = version ? IMMUTABLE_CACHE : DATA_CACHE;
    const given = query.values['format'] as Format | undefined;
    const format = given ?? negotiateFormat(req.headers.accept);
    // `format=csv` alone is the prebuilt bulk body (the URL names it: remembered like the JSON one).
    if (format !== 'json' && query.key === `format=${format}`) {
      memo.set(ctx.url, { path, body: bulk[format], vary: VARY_ACCEPT });
      sendView(bulk[format]);
      return true;
    }
    const cacheKey = `${path}?${query.key}#${format}`;
    let body = viewCache.get(cacheKey);
    if (body) viewCache.delete(cacheKey);
    else {
      const result = active.compute(query.values, format);
      if (!result.ok) {
        sendParamProblem(req, res, ctx, result.problem);
        return true;
      }
      body = precompute(result.text, MEDIA_TYPES[format], { effort: 'fast', eager: false });
      // A large bulk selection is sent, not kept: the cache holds at most 256 bodies.
      if (result.text.length > MAX_CACHED_VIEW_CHARS) {
        sendView(body, cacheControl);
        return true;
      }
    }
    viewCache.set(cacheKey, body);
    sendView(body, cacheControl);
    return true;
  };
}
