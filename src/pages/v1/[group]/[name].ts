// The dataset operations' unfiltered JSON bodies (GET /v1/registry/assets,
// /v1/market/stablecoins, /v1/compliance/mica-status), prerendered at build by their answer
// (src/api/answers.ts); any request with a query is answered on demand ([...dataset].ts).
import type { APIRoute, GetStaticPaths } from 'astro';
import { PRERENDERED_VIEWS } from '../../../api/operations.ts';
import { prerenderedDataset } from '../../../http/astro-endpoint.ts';

export const prerender = true;

export const getStaticPaths = (() =>
  PRERENDERED_VIEWS.map((path) => {
    const [group, name] = path.slice('/v1/'.length).split('/');
    return { params: { group, name }, props: { path } };
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  prerenderedDataset((props as { path: (typeof PRERENDERED_VIEWS)[number] }).path);
