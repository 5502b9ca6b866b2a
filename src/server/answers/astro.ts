// Astro's handler: the authority for every operation (FAST_PATH=off sends everything here), with
// the answers' state (the server's own copy of the build), status service and request id in
// `locals`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnswerState } from '../../api/answers.ts';
import type { ResponseSigner } from '../../representation/response-signer.ts';
import type { Runtime } from '../runtime.ts';
import type { RequestContext } from '../steps/context.ts';
import { refuse } from '../steps/refuse.ts';

export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals: App.Locals,
) => Promise<void>;

export function astroAnswer(
  astro: AstroHandler,
  state: AnswerState,
  runtime: Pick<Runtime, 'status'>,
  signer: ResponseSigner | null,
) {
  return function toAstro(ctx: RequestContext): Promise<void> {
    const { req, res, path, search } = ctx;
    // Astro builds its URL from Host: a fixed one, so a spoofed Host cannot leak into anything it renders.
    req.headers.host = 'localhost';
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-proto'];
    req.url = path + search;
    for (let i = 0; i < ctx.headers.length; i += 2)
      res.setHeader(ctx.headers[i]!, ctx.headers[i + 1]!);
    ctx.ordinary = true;
    return astro(req, res, () => refuse(ctx, 'no_operation_astro', { path }), {
      registry: state.registry,
      answers: state,
      status: runtime.status,
      requestId: ctx.requestId,
      ...(signer ? { signer } : {}),
    });
  };
}
