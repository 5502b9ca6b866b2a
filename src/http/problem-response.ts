// A problem as a web Response, for Astro endpoints that answer before any operation does (an
// unknown path under /v1): the body and headers the one writer makes (src/representation).
import type { ProblemCode } from '../domain/errors.ts';
import { problemRepresentation, webResponse } from '../representation/representation.ts';

export function problemResponse(
  code: ProblemCode,
  detail: string,
  requestId: string | undefined,
  extensions: Record<string, unknown> = {},
): Response {
  return webResponse(problemRepresentation({ code, detail, extensions }, requestId, 'GET'));
}
