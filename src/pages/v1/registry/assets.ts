// GET /v1/registry/assets — prerendered: the default view's bytes are produced at build.
// Filtered and paged views are computed on request by our server from the same dataset.
import type { APIRoute } from 'astro';
import { readDataset } from '../../../dataset/artifact.ts';
import { defaultRegistryListBody } from '../../../dataset/bodies.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(defaultRegistryListBody(readDataset()), {
    headers: { 'Content-Type': 'application/json' },
  });
