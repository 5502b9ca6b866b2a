import { createServer, connect, type Socket } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedReads } from '../../src/server/refused-reads.ts';

// Real connections over loopback: the server's side of each is what the pipeline defers.
const accepted: Socket[] = [];
const clients: Socket[] = [];
const server = createServer((s) => accepted.push(s));
beforeAll(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', r)));
afterAll(() => {
  for (const c of clients) c.destroy();
  return new Promise<void>((r) => server.close(() => r()));
});

async function connections(n: number): Promise<Socket[]> {
  const from = accepted.length;
  const { port } = server.address() as { port: number };
  for (let i = 0; i < n; i++) clients.push(connect(port, '127.0.0.1'));
  while (accepted.length < from + n) await turn();
  return accepted.slice(from, from + n);
}

describe('refused connections read in turns', () => {
  it('pauses a refused connection while keyed requests are served, and resumes one per turn', async () => {
    const reads = refusedReads(1, 1000);
    const [paying, ...flood] = await connections(4);
    reads.keyed(paying!, 0);
    for (const s of flood) reads.defer(s, 10);
    expect(flood.map((s) => s.isPaused())).toEqual([true, true, true]);
    expect(reads.waiting).toBe(3);
    await turn();
    expect(flood.map((s) => s.isPaused())).toEqual([false, true, true]);
    await turn();
    await turn();
    expect(flood.map((s) => s.isPaused())).toEqual([false, false, false]);
    expect(reads.waiting).toBe(0);
  });

  it('never defers a connection that carried a keyed request, nor any once no key was seen for the window', async () => {
    const reads = refusedReads(1, 1000);
    const [pooled, other] = await connections(2);
    reads.keyed(pooled!, 0);
    reads.defer(pooled!, 5);
    expect(pooled!.isPaused()).toBe(false);
    reads.defer(other!, 1001);
    expect(other!.isPaused()).toBe(false);
    expect(reads.waiting).toBe(0);
  });

  it('skips a connection closed while it waited', async () => {
    const reads = refusedReads(1, 1000);
    const [paying, gone, next] = await connections(3);
    reads.keyed(paying!, 0);
    reads.defer(gone!, 1);
    reads.defer(next!, 1);
    gone!.destroy();
    await turn();
    await turn();
    expect(next!.isPaused()).toBe(false);
    expect(reads.waiting).toBe(0);
  });
});
