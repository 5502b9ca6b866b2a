// One writer (src/representation): the server's node:http writer (respond.ts, on its prepared
// header block path and on the ordinary one) and the web Response Astro's endpoints return
// (representation.ts) send what `represent` and `problemRepresentation` decide, for every
// coding, a revalidation, HEAD and a problem, signed. Without a build: the parity test
// (test/integration/fast-path-parity.test.ts) holds the whole server to the same, per operation.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompute } from '../../src/representation/precomputed.ts';
import {
  answerResponse,
  problemRepresentation,
  represent,
  type Representation,
} from '../../src/representation/representation.ts';
import {
  sendPrecomputed,
  sendProblem,
  type ProblemContext,
} from '../../src/representation/respond.ts';
import { responseSigner } from '../../src/representation/response-signer.ts';

const { privateKey } = generateKeyPairSync('ed25519');
const signer = responseSigner(
  { privateKey, kid: 'k1', jwks: { keys: [] } },
  { version: '2026-11-22.de0dba057f82', builtAt: '2026-11-22T10:00:00Z' },
);
const body = precompute(JSON.stringify({ data: 'asset '.repeat(400) }), 'application/json', {
  effort: 'fast',
});
const options = { cacheControl: 'public, max-age=60', vary: 'Accept, Accept-Encoding' };
const REQUEST_ID = 'f3c1b2a4-0000-4000-8000-000000000000';
/** Fields the server adds to every answer before the writer's (the pipeline's headers). */
const CONTEXT = ['X-Request-Id', REQUEST_ID, 'X-Content-Type-Options', 'nosniff'];
/** Fields node:http writes itself. */
const NODE_FIELDS = new Set(['date', 'connection', 'keep-alive']);

function answer(req: IncomingMessage, res: ServerResponse) {
  const ctx: ProblemContext = {
    requestId: REQUEST_ID,
    headers: [...CONTEXT],
    ordinary: req.headers['x-ordinary'] === '1',
    signer,
  };
  if (req.url === '/problem') return sendProblem(req, res, ctx, 'not_found', 'No such asset.');
  sendPrecomputed(req, res, ctx, body, options);
}

const server = createServer(answer);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Sent {
  status: number;
  headers: string[];
  body: Buffer;
}

function send(path: string, method: string, headers: Record<string, string>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const own: string[] = [];
        for (let i = 0; i < raw.length; i += 2)
          if (!NODE_FIELDS.has(raw[i]!.toLowerCase())) own.push(raw[i]!, raw[i + 1]!);
        resolve({ status: res.statusCode!, headers: own, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function fromWeb(response: Response): Promise<Sent> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(name, value));
  return {
    status: response.status,
    headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

const bytesOf = (r: Representation) =>
  r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body as Buffer | string);
/** Name/value pairs with lower-cased names, sorted (a web Headers object sorts its fields). */
const sorted = (pairs: string[]) => {
  const out: [string, string][] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push([pairs[i]!.toLowerCase(), pairs[i + 1]!]);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};

const CODINGS = [undefined, 'gzip', 'br', 'gzip;q=1, br;q=0.5', 'identity'] as const;

describe('one writer', () => {
  it.each(
    CODINGS.flatMap((acceptEncoding) =>
      ['GET', 'HEAD'].flatMap((method) =>
        [false, true].map((revalidating) => ({ acceptEncoding, method, revalidating })),
      ),
    ),
  )('sends a body as represent() decides: %o', async ({ acceptEncoding, method, revalidating }) => {
    const ifNoneMatch = revalidating ? body.etagFor('br') : undefined;
    const expected = represent(body, options, { method, acceptEncoding, ifNoneMatch }, signer);
    const headers: Record<string, string> = {};
    if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding;
    if (ifNoneMatch) headers['If-None-Match'] = ifNoneMatch;
    expect(expected.status).toBe(revalidating ? 304 : 200);

    for (const ordinary of ['0', '1']) {
      const sent = await send('/body', method, { ...headers, 'X-Ordinary': ordinary });
      expect(sent.status).toBe(expected.status);
      expect(sent.headers).toEqual([...CONTEXT, ...expected.headers]);
      expect(sent.body.equals(bytesOf(expected))).toBe(true);
    }

    const web = await fromWeb(
      answerResponse(
        { ok: true, body, ...options, fixed: true },
        new Request('http://x/body', { method, headers }),
        REQUEST_ID,
        signer,
      ),
    );
    expect(web.status).toBe(expected.status);
    expect(sorted(web.headers)).toEqual(sorted(expected.headers));
    expect(web.body.equals(bytesOf(expected))).toBe(true);
  });

  it('sends a problem as problemRepresentation() decides, signed as made', async () => {
    const problem = { code: 'not_found' as const, detail: 'No such asset.', extensions: {} };
    const expected = problemRepresentation(problem, REQUEST_ID, 'GET', signer);
    // Signed as made: the fields are compared by name, the digest (of the same bytes) by value.
    const named = (pairs: string[]) =>
      sorted(pairs).map(([n, v]) => [n, n.startsWith('signature') ? '(signed)' : v]);
    for (const ordinary of ['0', '1']) {
      const sent = await send('/problem', 'GET', { 'X-Ordinary': ordinary });
      expect(sent.status).toBe(404);
      expect(named(sent.headers)).toEqual(named([...CONTEXT, ...expected.headers]));
      expect(sent.body.equals(bytesOf(expected))).toBe(true);
    }
    const web = await fromWeb(
      answerResponse(
        { ok: false, problem, fixed: true },
        new Request('http://x/a'),
        REQUEST_ID,
        signer,
      ),
    );
    expect(web.status).toBe(404);
    expect(named(web.headers)).toEqual(named(expected.headers));
    expect(web.body.equals(bytesOf(expected))).toBe(true);
  });
});
