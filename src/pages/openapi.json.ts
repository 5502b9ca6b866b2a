// GET /openapi.json — the OpenAPI 3.1 document, prerendered from the zod schemas at build.
import type { APIRoute } from 'astro';
import { sharedDataset } from '../dataset/artifact.ts';
import { openApiDocument } from '../openapi/document.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(JSON.stringify(openApiDocument(sharedDataset()), null, 2), {
    headers: { 'Content-Type': 'application/json' },
  });
