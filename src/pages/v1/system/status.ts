// GET /v1/system/status — on demand: the live snapshot the StatusService our server passes in
// `locals` builds at most once a second, answered by src/api/answers.ts as the fast path does.
import { operationEndpoint } from '../../../http/astro-endpoint.ts';

export const prerender = false;

const endpoint = operationEndpoint('/v1/system/status');
export const GET = endpoint.GET;
export const HEAD = endpoint.HEAD;
