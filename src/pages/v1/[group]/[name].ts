// The dataset operations' unfiltered JSON bodies (GET /v1/registry/assets,
// /v1/market/stablecoins, /v1/compliance/mica-status), prerendered at build: the bytes the bodies
// pass made by their answer (src/authoring/prebuilt-bodies.ts), sent unparsed; any request with
// a query is answered on demand ([...operation].ts).
import type { APIRoute, GetStaticPaths } from 'astro';
import { MEDIA_TYPES } from '../../../api/bulk.ts';
import { PRERENDERED_VIEWS } from '../../../api/operations.ts';
import { datasetPath } from '../../../dataset/artifact.ts';
import { prebuiltBody } from '../../../dataset/built-files.ts';

export const prerender = true;

export const getStaticPaths = (() =>
  PRERENDERED_VIEWS.map((path) => {
    const [group, name] = path.slice('/v1/'.length).split('/');
    return { params: { group, name }, props: { path } };
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(prebuiltBody(datasetPath(), (props as { path: string }).path.slice(1)), {
    headers: { 'Content-Type': MEDIA_TYPES.json },
  });
