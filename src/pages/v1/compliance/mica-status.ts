// GET /v1/compliance/mica-status — prerendered: the full view's bytes are produced at build;
// the member-state filter is computed by our server from the same dataset and functions.
import type { APIRoute } from 'astro';
import { readDataset } from '../../../dataset/artifact.ts';
import { micaStatusBody, serialise } from '../../../api/bodies.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(serialise(micaStatusBody(readDataset())), {
    headers: { 'Content-Type': 'application/json' },
  });
