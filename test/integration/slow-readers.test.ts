// Issue #14 item 6: clients that never read cannot hold sockets or exhaust the connection budget.
// A write-inactivity timeout (SEND_TIMEOUT_MS) closes their sockets; a per-address cap keeps one
// address from taking every connection (so /healthz stays reachable from elsewhere), and a global
// cap bounds the file descriptors. Real sockets from distinct loopback addresses.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    MAX_CONNECTIONS: '30',
    MAX_CONNECTIONS_PER_ADDRESS: '10',
    SEND_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await server?.stop();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(from: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port: server.port, host: '127.0.0.1', localAddress: from }, () =>
      resolve(s),
    );
    s.on('error', reject);
  });
}

/** A client that asks for a lot and never reads a byte. */
async function neverReader(from: string): Promise<net.Socket> {
  const s = await connect(from);
  s.pause();
  s.on('error', () => undefined);
  const request = 'GET /v1/registry/assets HTTP/1.1\r\nHost: x\r\nX-API-Key: DEMO_KEY\r\n\r\n';
  s.write(request.repeat(400));
  return s;
}

/** One request on a fresh connection from `from`: the status, or the refusal's status. */
async function status(
  from: string,
  p = '/healthz',
): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  const s = await connect(from);
  return new Promise((resolve) => {
    let text = '';
    s.on('data', (d) => (text += d.toString()));
    s.on('error', () => undefined);
    s.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        ms: performance.now() - t0,
        text,
      }),
    );
    s.write(`GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  });
}

describe('never-reading clients', () => {
  it('are capped per address, leave /healthz reachable from another address, and lose their sockets', async () => {
    const readers = await Promise.all(Array.from({ length: 10 }, () => neverReader('127.0.0.1')));
    await sleep(300);
    // Their address has used its budget: a new connection from it is refused with 503 ...
    expect((await status('127.0.0.1')).status).toBe(503);
    // ... while another address gets /healthz at once.
    const other = await status('127.0.0.2');
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(1000);
    // After SEND_TIMEOUT_MS without progress their sockets are closed, and the address may connect again.
    // (Polled: on a loaded machine filling ten clients' kernel buffers takes a while first.)
    let again = 0;
    for (let waited = 0; waited < 20_000 && again !== 200; waited += 500) {
      await sleep(500);
      again = (await status('127.0.0.1')).status;
    }
    expect(again).toBe(200);
    // Every one of them is closed by the send timeout (polled, as above).
    const timedOut = async () => {
      const m = await status('127.0.0.2', '/metrics');
      expect(m.status).toBe(200);
      return Number(/^tai_connections_timed_out_total (\d+)/m.exec(m.text)?.[1]);
    };
    let closed = await timedOut();
    for (let waited = 0; waited < 20_000 && closed < 10; waited += 500) {
      await sleep(500);
      closed = await timedOut();
    }
    expect(closed).toBeGreaterThanOrEqual(10);
    for (const r of readers) r.destroy();
  });

  it('cannot take more than MAX_CONNECTIONS sockets in all', async () => {
    const held: net.Socket[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5'])
      for (let i = 0; i < 10; i++) held.push(await neverReader(from));
    await sleep(200);
    expect((await status('127.0.0.6')).status).toBe(503);
    for (const s of held) s.destroy();
    await sleep(300);
    expect((await status('127.0.0.6')).status).toBe(200);
  });
});
