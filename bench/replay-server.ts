// The bare node:http baseline that holds the same bytes as our server: each benchmark request's
// response as our server sent it (status, header fields, body; bench/capture.ts), written with
// the plain Node API and nothing else (no key, no limits, no logs, no metering). Against it,
// "ours vs bare node" measures what our pipeline costs, not what our header fields weigh.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { replayKey, type CapturedResponse } from './capture.ts';

const file = process.argv[2]!;
const port = Number(process.argv[3] ?? 0);
// REPLAY_DROP=name,name: replay without these fields (bench/reconcile.ts weighs each field).
const drop = new Set(
  (process.env['REPLAY_DROP'] ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean),
);

interface Replayed {
  status: number;
  headers: string[];
  body: Buffer;
}
const responses = new Map<string, Replayed>();
for (const c of JSON.parse(readFileSync(file, 'utf8')) as CapturedResponse[])
  responses.set(c.key, {
    status: c.status,
    headers: c.headers.flatMap((v, i, all) =>
      i % 2 === 0 ? (drop.has(v.toLowerCase()) ? [] : [v, all[i + 1]!]) : [],
    ),
    body: Buffer.from(c.body, 'base64'),
  });
const notFound = Buffer.from('{"status":404}');

const server = createServer((req, res) => {
  const r = responses.get(replayKey(req.url ?? '/', req.headers));
  if (!r) {
    res.writeHead(404, { 'Content-Length': notFound.length });
    res.end(notFound);
    return;
  }
  res.writeHead(r.status, r.headers);
  res.end(req.method === 'HEAD' || r.status === 304 ? undefined : r.body);
});
server.listen(port, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
