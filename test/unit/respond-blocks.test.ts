// The prepared header blocks (respond.ts) rely on one node:http internal: the header writeHead
// stores in `res._header` is what the first write sends. These tests pin the bytes of the
// block path against the ordinary writeHead path over a real socket (in process), for 200, 304,
// HEAD, a problem (with fields of its own or not), keep-alive and HTTP/1.0: if a Node upgrade changes the internal, they fail.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompute } from '../../src/representation/precomputed.ts';
import {
  sendPrecomputed,
  sendUncached,
  type ProblemContext,
} from '../../src/representation/respond.ts';

const body = precompute(JSON.stringify({ hello: 'world'.repeat(200) }), 'application/json', {
  effort: 'fast',
  eager: true,
});

function answer(req: IncomingMessage, res: ServerResponse) {
  const ordinary = req.headers['x-ordinary'] === '1';
  const ctx: ProblemContext = {
    requestId: 'f3c1b2a4-0000-4000-8000-000000000000',
    headers: [
      'X-Request-Id',
      'f3c1b2a4-0000-4000-8000-000000000000',
      'X-Content-Type-Options',
      'nosniff',
    ],
    ordinary,
  };
  ctx.headers.push('RateLimit-Policy', '"demo";q=10;w=60', 'RateLimit', '"demo";r=9;t=42');
  if (req.url === '/problem')
    return sendUncached(req, res, ctx, 404, 'application/problem+json', '{"status":404}');
  // A refusal with fields of its own (as the access step's 401 and 429).
  if (req.url === '/refusal')
    return sendUncached(req, res, ctx, 429, 'application/problem+json', '{"status":429}', [
      'WWW-Authenticate',
      'Bearer realm="x"',
      'Retry-After',
      '42',
    ]);
  sendPrecomputed(req, res, ctx, body, {
    cacheControl: 'private, max-age=60',
    vary: 'Accept, Accept-Encoding',
  });
}

let port = 0;
const server = createServer({ keepAliveTimeout: 5000 }, answer);
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The raw bytes of the answers to `requests` sent at once on one connection (pipelined). */
function exchange(requests: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    socket.end(requests);
  });
}

const withoutDate = (raw: string) => raw.replace(/\r\nDate: [^\r]+/g, '\r\nDate: -');

async function both(request: (ordinary: string) => string): Promise<[string, string]> {
  const fast = await exchange(request(''));
  const ordinary = await exchange(request('X-Ordinary: 1\r\n'));
  return [withoutDate(fast), withoutDate(ordinary)];
}

describe('prepared header blocks', () => {
  it('write the same bytes as writeHead for 200 in each coding, 304, HEAD and problems', async () => {
    const etag = body.etagFor('gzip');
    const [fast, ordinary] = await both(
      (o) =>
        `GET / HTTP/1.1\r\nHost: x\r\n${o}\r\n` +
        `GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n${o}\r\n` +
        `GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n${o}\r\n` +
        `GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: ${etag}\r\n${o}\r\n` +
        `HEAD / HTTP/1.1\r\nHost: x\r\n${o}\r\n` +
        `GET /refusal HTTP/1.1\r\nHost: x\r\n${o}\r\n` +
        `GET /problem HTTP/1.1\r\nHost: x\r\n${o}Connection: close\r\n\r\n`,
    );
    expect(fast.match(/HTTP\/1\.1 /g)).toHaveLength(7);
    expect(fast).toContain('Retry-After: 42\r\nCache-Control: no-store\r\n');
    expect(fast).toContain('HTTP/1.1 304 Not Modified\r\n');
    expect(fast).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n');
    expect(fast).toBe(ordinary);
  });

  it('close an HTTP/1.0 connection as writeHead does', async () => {
    const [fast, ordinary] = await both((o) => `GET / HTTP/1.0\r\n${o}\r\n`);
    expect(fast).toContain('Connection: close\r\n');
    expect(fast).toBe(ordinary);
  });
});
