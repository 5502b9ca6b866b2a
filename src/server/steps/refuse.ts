// Refusals by name: the wording and fixed headers come from the error catalogue (REFUSALS in
// src/domain/errors.ts), so the pipeline holds no refusal text of its own.
import {
  REFUSALS,
  refusalDetail,
  refusalHeaders,
  type RefusalName,
  type RefusalVars,
} from '../../domain/errors.ts';
import { sendProblem } from '../../representation/respond.ts';
import type { RequestContext } from './context.ts';

/** Answers the request with the named refusal; always true (the request is answered). */
export function refuse<N extends RefusalName>(
  ctx: RequestContext,
  name: N,
  vars: RefusalVars<N>,
  extensions: Record<string, unknown> = {},
  /** Headers whose values this request decides (Retry-After), after the fixed ones. */
  head: string[] = [],
): true {
  const detail = refusalDetail(name, vars);
  const fixed = refusalHeaders(name);
  const headers = head.length > 0 ? fixed.concat(head) : fixed;
  sendProblem(ctx.req, ctx.res, ctx, REFUSALS[name].code, detail, extensions, headers);
  return true;
}
