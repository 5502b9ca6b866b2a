// Body step: a request body (none of our methods takes one) is received before the answer, so a
// malformed one is answered 400 by Node's parser alone, never after our own response; more than
// MAX_IGNORED_BODY is refused by the connection step.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { announcesBody } from '../http-conformance.ts';

/** Bytes of an unexpected request body read (and discarded) before answering; more is refused. */
export const MAX_IGNORED_BODY = 65_536;
/** Requests whose body went past MAX_IGNORED_BODY: answered 400, connection closed. */
const oversized = new WeakSet<IncomingMessage>();

export const bodyTooLarge = (req: IncomingMessage): boolean => oversized.has(req);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** True when the body is being read first: `handle` runs again once it is (or is too large). */
export function receiveBodyFirst(
  req: IncomingMessage,
  res: ServerResponse,
  handle: Handler,
): boolean {
  if (req.complete || oversized.has(req) || !announcesBody(req)) return false;
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_IGNORED_BODY) return;
    req.off('data', onData);
    req.off('end', onEnd);
    oversized.add(req);
    handle(req, res);
  };
  const onEnd = () => handle(req, res);
  req.on('data', onData);
  req.once('end', onEnd);
  return true;
}
