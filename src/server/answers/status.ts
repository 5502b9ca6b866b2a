// The status snapshot: one precomputed body (hash, lazy compression) per snapshot, not per request.
import { readParams } from '../../dataset/params.ts';
import { precompute, type Precomputed } from '../precomputed.ts';
import { sendParamProblem, sendPrecomputed } from '../respond.ts';
import type { RequestContext } from '../steps/context.ts';

export const STATUS_PATH = '/v1/system/status';

export function statusAnswer(status: { json(): Promise<string> }) {
  let current: { json: string; body: Precomputed } | null = null;
  return async function systemStatus(ctx: RequestContext): Promise<void> {
    const { req, res, search } = ctx;
    if (search !== '' && search !== '?') {
      const params = readParams(new URLSearchParams(search), []);
      if (!params.ok) return sendParamProblem(req, res, ctx, params.problem);
    }
    const text = await status.json();
    if (current?.json !== text)
      current = {
        json: text,
        body: precompute(text, 'application/json', { effort: 'fast', eager: false }),
      };
    sendPrecomputed(req, res, ctx, current.body, { cacheControl: 'private, no-cache' });
  };
}
