// GET /v1/system/status — on demand: live figures from the service database, built at most once
// a second by the StatusService our server passes in `locals` (the server's fast path sends the
// same snapshot without entering Astro).
import type { APIRoute } from 'astro';
import { problemResponse } from '../../../http/problem-response.ts';
import { readParams } from '../../../api/params.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url, locals }) => {
  const params = readParams(url.searchParams, []);
  if (!params.ok)
    return problemResponse(
      params.problem.code,
      params.problem.detail,
      locals.requestId,
      params.problem.extensions,
    );
  if (!locals.status)
    return problemResponse(
      'service_unavailable',
      'The status service is not running in this process.',
      locals.requestId,
    );
  return new Response(await locals.status.json(), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-cache' },
  });
};
