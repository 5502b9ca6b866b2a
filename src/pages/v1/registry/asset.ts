// GET /v1/registry/asset?tfin= (or isin, contract, dti) — on demand: the lookup's answer
// (src/api/answers.ts), the one the server's fast path sends.
import { operationEndpoint } from '../../../http/astro-endpoint.ts';

export const prerender = false;

const endpoint = operationEndpoint('/v1/registry/asset');
export const GET = endpoint.GET;
export const HEAD = endpoint.HEAD;
