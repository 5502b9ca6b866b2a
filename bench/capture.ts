// Captures our server's responses to the benchmark's requests, byte for byte (status, header
// fields in order, body), for the replaying baseline (bench/replay-server.ts). Date and the
// connection's own fields are left to the replaying server, which adds them as Node always does.
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';

export interface CapturedResponse {
  /** The request as the replaying server keys it (see `replayKey`). */
  key: string;
  status: number;
  /** Name/value pairs, in the order our server sent them. */
  headers: string[];
  body: string;
}

/** The request fields that choose a representation, joined: url, Accept, Accept-Encoding, If-None-Match. */
export function replayKey(
  url: string,
  headers: Record<string, string | string[] | undefined>,
): string {
  const field = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' ? v : '';
  };
  return `${url}\n${field('accept')}\n${field('accept-encoding')}\n${field('if-none-match')}`;
}

const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function fetchRaw(
  base: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${url}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!NODE_OWN.has(res.rawHeaders[i]!.toLowerCase()))
            pairs.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Asks our server each request once and writes what it answered to `file`. */
export async function captureResponses(
  base: string,
  requests: { url: string; headers: Record<string, string> }[],
  file: string,
): Promise<void> {
  const captured: CapturedResponse[] = [];
  for (const r of requests) {
    const lower = Object.fromEntries(
      Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const res = await fetchRaw(base, r.url, r.headers);
    captured.push({
      key: replayKey(r.url, lower),
      status: res.status,
      headers: res.headers,
      body: res.body.toString('base64'),
    });
  }
  writeFileSync(file, JSON.stringify(captured));
}
