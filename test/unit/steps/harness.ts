// In-process harness for the pipeline's steps: a handler built from a list of steps over a fresh
// RequestContext, driven by light-my-request (no socket, no forked server, no built dist). When no
// step answers, the handler answers 299 with what the steps decided (the context's headers as
// headers, its fields as JSON), so a test sees both refusals and decisions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import inject, { type InjectOptions, type Response } from 'light-my-request';
import { newContext, type RequestContext } from '../../../src/server/steps/context.ts';
import type { Precomputed } from '../../../src/representation/precomputed.ts';
import { precompute } from '../../../src/representation/precomputed.ts';

export type Step = (ctx: RequestContext) => boolean | void | Promise<boolean | void>;

export const PASSED = 299;

export function handlerOf(...steps: Step[]) {
  const contexts: RequestContext[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const ctx = newContext(req, res, req.socket.remoteAddress ?? 'unknown');
    // light-my-request reads the headers given to writeHead, not the header block node:http
    // stores: the writer's ordinary path (respond-blocks.test.ts pins both to the same bytes).
    ctx.ordinary = true;
    contexts.push(ctx);
    const run = async () => {
      for (const step of steps) {
        const answered = await step(ctx);
        if (answered === true || res.headersSent) return;
      }
      const body = JSON.stringify({
        path: ctx.path,
        search: ctx.search,
        route: ctx.route,
        api: ctx.api,
        operation: ctx.operation,
        principal: ctx.principal,
        hot: ctx.hot?.path ?? null,
      });
      res.writeHead(PASSED, ctx.headers.concat('Content-Length', String(Buffer.byteLength(body))));
      res.end(body);
    };
    void run();
  };
  return { handle, contexts };
}

export const send = (
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  options: InjectOptions | string,
): Promise<Response> => inject(handle, options);

export const jsonBody = (text: string): Precomputed =>
  precompute(text, 'application/json', { effort: 'fast', eager: true });
