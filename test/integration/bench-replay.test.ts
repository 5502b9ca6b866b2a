// The benchmark's bare node:http baseline replays our server's responses (bench/replay-server.ts):
// its ratio means "what our pipeline costs" only if it sends what we send. Captured from a real
// server, replayed, and compared field by field (the per-request values aside) and byte by byte.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureResponses } from '../../bench/capture.ts';
import { DEMO, raw, startServer, type TestServer } from '../helpers/server.ts';

let ours: TestServer;
let replay: ChildProcess;
let replayUrl: string;
const requests: { url: string; headers: Record<string, string> }[] = [];

/**
 * Fields whose values differ per request by design (the id, the quota count, the clock) or belong
 * to the connection (each server's keep-alive settings).
 */
const PER_REQUEST = new Set(['x-request-id', 'ratelimit', 'date', 'connection', 'keep-alive']);

beforeAll(async () => {
  ours = await startServer();
  const list = await raw(`${ours.url}/v1/registry/assets`);
  const tfin = (JSON.parse(list.body.toString()) as { data: { tfin: string }[] }).data[0]!.tfin;
  requests.push(
    { url: '/v1/registry/assets', headers: DEMO },
    { url: '/v1/registry/assets', headers: { ...DEMO, 'Accept-Encoding': 'br' } },
    { url: '/v1/registry/assets', headers: { ...DEMO, Accept: 'text/csv' } },
    {
      url: '/v1/registry/assets',
      headers: { ...DEMO, 'If-None-Match': String(list.headers['etag']) },
    },
    { url: `/v1/registry/asset?tfin=${tfin}`, headers: DEMO },
    { url: '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2099-0001', headers: DEMO },
    { url: '/v1/system/status', headers: DEMO },
  );
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tai-replay-')), 'replay.json');
  await captureResponses(ours.url, requests, file);
  replay = spawn(process.execPath, ['bench/replay-server.ts', file, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    replay.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"port":(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    replay.once('exit', (code) => reject(new Error(`replay server exited ${code}`)));
  });
  replayUrl = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  replay?.kill('SIGTERM');
  await ours?.stop();
});

describe('the replaying baseline', () => {
  it('sends our status, header fields in our order, and our body bytes', async () => {
    for (const r of requests) {
      const a = await raw(`${ours.url}${r.url}`, { headers: r.headers });
      const b = await raw(`${replayUrl}${r.url}`, { headers: r.headers });
      const label = `${r.url} ${JSON.stringify(r.headers)}`;
      expect(b.status, label).toBe(a.status);
      const fields = (h: string[]) => {
        const out: string[] = [];
        for (let i = 0; i < h.length; i += 2)
          out.push(
            `${h[i]!.toLowerCase()}: ${PER_REQUEST.has(h[i]!.toLowerCase()) ? '…' : h[i + 1]}`,
          );
        return out;
      };
      expect(fields(b.rawHeaders), label).toEqual(fields(a.rawHeaders));
      // A problem names its request in `instance`: the replay keeps the captured request's id.
      const own = (r: typeof a) =>
        r.body.toString('latin1').replaceAll(String(r.headers['x-request-id']), '…');
      expect(own(b), label).toBe(own(a));
    }
  });
});
