// Problem responses as web Responses (for Astro endpoints); the server writes the same bodies.
import { randomUUID } from 'node:crypto';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody, type ProblemCode } from '../domain/errors.ts';

export function instanceFor(requestId: string | undefined): string {
  return `urn:uuid:${requestId ?? randomUUID()}`;
}

export function problemResponse(
  code: ProblemCode,
  detail: string,
  requestId: string | undefined,
  extensions: Record<string, unknown> = {},
): Response {
  const body = problemBody(code, detail, instanceFor(requestId), extensions);
  return new Response(JSON.stringify(body), {
    status: PROBLEMS[code].status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store' },
  });
}
