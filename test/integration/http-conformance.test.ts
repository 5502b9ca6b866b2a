// Issue #14 item 20: HTTP/1.1 message rules (RFC 9112), answered as nginx answers them, over raw
// sockets (a client library would repair the requests).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Writes `request`, reads until the server closes or `idleMs` pass without data. */
function exchange(request: string, idleMs = 700): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let idle: NodeJS.Timeout;
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(request));
    const done = (closed: boolean) => {
      clearTimeout(idle);
      socket.destroy();
      resolve({ text, closed });
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => done(false), idleMs);
    };
    arm();
    socket.on('data', (d) => {
      text += d.toString('latin1');
      arm();
    });
    socket.on('close', () => done(true));
    socket.on('error', (e) => (text ? done(true) : reject(e)));
  });
}
const statuses = (text: string) =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
const KEY = 'X-API-Key: DEMO_KEY\r\n';

describe('Host (RFC 9112 §3.2)', () => {
  it('answers a missing, duplicate or invalid Host with 400 and closes', async () => {
    for (const head of [
      `GET /v1/registry/assets HTTP/1.1\r\n${KEY}\r\n`,
      `GET /v1/registry/assets HTTP/1.1\r\nHost: a\r\nHost: b\r\n${KEY}\r\n`,
      `GET /v1/registry/assets HTTP/1.1\r\nHost: a b\r\n${KEY}\r\n`,
      `GET /v1/registry/assets HTTP/1.1\r\nHost: a/b\r\n${KEY}\r\n`,
      `GET /v1/registry/assets HTTP/1.1\r\nHost: \r\n${KEY}\r\n`,
    ]) {
      const { text, closed } = await exchange(head);
      expect(statuses(text), JSON.stringify(head)).toEqual([400]);
      expect(text).toContain('application/problem+json');
      expect(closed).toBe(true);
    }
  });
  it('accepts HTTP/1.0 without Host, and valid hosts with ports and IP literals', async () => {
    expect(statuses((await exchange(`GET /healthz HTTP/1.0\r\n\r\n`)).text)).toEqual([200]);
    for (const host of ['localhost:4321', '[::1]:80', '127.0.0.1', 'api.example.com']) {
      const { text } = await exchange(
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(statuses(text), host).toEqual([200]);
    }
  });
});

describe('request targets and methods', () => {
  it('serves an absolute-form target as its path (§3.2.2)', async () => {
    const { text } = await exchange(
      `GET http://api.example.com/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001 HTTP/1.1\r\nHost: other.example\r\n${KEY}Connection: close\r\n\r\n`,
    );
    expect(statuses(text)).toEqual([200]);
    expect(text).toContain('"tfin":"TFIN-DEBT-ETH-2021-0001"');
    const root = await exchange(
      `GET http://api.example.com HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(statuses(root.text)).toEqual([200]);
  });
  it('answers OPTIONS * with 200 and Allow; * with another method is 400', async () => {
    const { text } = await exchange(`OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(statuses(text)).toEqual([200]);
    expect(text).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
    expect(statuses((await exchange(`GET * HTTP/1.1\r\nHost: x\r\n\r\n`)).text)).toEqual([400]);
  });
  it('answers CONNECT with 405 and Allow instead of dropping the connection', async () => {
    const { text, closed } = await exchange(
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
    );
    expect(statuses(text)).toEqual([405]);
    expect(text).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/);
    expect(closed).toBe(true);
  });
  it('answers HTTP/2.0 (and other versions) in a request line with 505', async () => {
    for (const version of ['HTTP/2.0', 'HTTP/3.0']) {
      const { text } = await exchange(`GET /healthz ${version}\r\nHost: x\r\n\r\n`);
      expect(statuses(text), version).toEqual([505]);
    }
  });
});

describe('request bodies on a read-only API', () => {
  it('answers a GET with a malformed chunked body with one 400 and closes (no 200 first)', async () => {
    const { text, closed } = await exchange(
      `GET /v1/registry/assets HTTP/1.1\r\nHost: x\r\n${KEY}Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`,
    );
    expect(statuses(text)).toEqual([400]);
    expect(closed).toBe(true);
  });
  it('refuses a body of more than 64 KB with 400 and closes', async () => {
    const { text, closed } = await exchange(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${'b'.repeat(100_000)}`,
    );
    expect(statuses(text)).toEqual([400]);
    expect(closed).toBe(true);
  });
  it('still answers a GET with a well-formed body once (the body is read and ignored)', async () => {
    const { text } = await exchange(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(statuses(text)).toEqual([200, 200]);
  });
});
