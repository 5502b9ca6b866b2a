// Every operation on demand (the lookup, the status, and the dataset operations' filters,
// formats and dataset_version=; their unfiltered bodies are the emitter's files, scripts/emit.ts):
// the answer of the operation at the path, from the operations table, as the server's fast path
// sends it. A path without an entry in the table is a 404 problem.
import type { APIRoute } from 'astro';
import { operationAt, type OperationPath } from '../../api/operations.ts';
import { operationResponse } from '../../http/astro-endpoint.ts';
import { problemResponse } from '../../http/problem-response.ts';

export const prerender = false;

export const GET: APIRoute = (context) => {
  const operation = operationAt(context.url.pathname);
  if (!operation)
    return problemResponse(
      'not_found',
      `No operation at ${context.url.pathname}. See /docs for the five operations under /v1.`,
      context.locals.requestId,
    );
  return operationResponse(operation.path as OperationPath, context);
};
export const HEAD = GET;
