// GET /v1/market/stablecoins — prerendered: the full view's bytes are produced at build;
// filtered views are computed by our server from the same dataset and functions.
import type { APIRoute } from 'astro';
import { readDataset } from '../../../dataset/artifact.ts';
import { serialise, stablecoinsBody } from '../../../api/bodies.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(serialise(stablecoinsBody(readDataset())), {
    headers: { 'Content-Type': 'application/json' },
  });
