// The bare node:http baseline: the same prebuilt bytes from memory, no pipeline at all
// (no key, no limits, no logs). What "JSON from memory" costs on this machine.
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const client = path.resolve(process.argv[2] ?? 'dist/client');
const port = Number(process.argv[3] ?? 0);

interface Body {
  identity: Buffer;
  gzip: Buffer | undefined;
  br: Buffer | undefined;
  etag: string;
}
const file = (rel: string): Body => {
  const f = path.join(client, rel);
  const read = (x: string) => (existsSync(x) ? readFileSync(x) : undefined);
  return {
    identity: readFileSync(f),
    gzip: read(`${f}.gz`),
    br: read(`${f}.br`),
    etag: `"${rel.length}-${readFileSync(f).length}"`,
  };
};
const routes = new Map<string, Body>([
  ['/v1/registry/assets', file('v1/registry/assets')],
  ['/v1/market/stablecoins', file('v1/market/stablecoins')],
  ['/v1/compliance/mica-status', file('v1/compliance/mica-status')],
]);
const profiles = new Map<string, Buffer>();
for (const line of readFileSync(
  path.join(client, 'internal/registry-profiles.ndjson'),
  'utf8',
).split('\n')) {
  if (line)
    profiles.set(
      line.slice(0, line.indexOf('\t')),
      Buffer.from(line.slice(line.indexOf('\t') + 1)),
    );
}
const notFound = Buffer.from('{"status":404}');

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const route = q === -1 ? url : url.slice(0, q);
  if (route === '/v1/registry/asset') {
    const tfin = new URLSearchParams(url.slice(q + 1)).get('tfin')?.toUpperCase() ?? '';
    const body = profiles.get(tfin);
    res.writeHead(body ? 200 : 404, {
      'Content-Type': 'application/json',
      'Content-Length': (body ?? notFound).length,
    });
    res.end(body ?? notFound);
    return;
  }
  const body = routes.get(route);
  if (!body) {
    res.writeHead(404, { 'Content-Length': notFound.length });
    res.end(notFound);
    return;
  }
  if (req.headers['if-none-match'] === body.etag) {
    res.writeHead(304, { ETag: body.etag });
    res.end();
    return;
  }
  const ae = req.headers['accept-encoding'] ?? '';
  const [bytes, coding] =
    ae.includes('br') && body.br
      ? [body.br, 'br']
      : ae.includes('gzip') && body.gzip
        ? [body.gzip, 'gzip']
        : [body.identity, undefined];
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': bytes.length,
    ETag: body.etag,
    ...(coding ? { 'Content-Encoding': coding } : {}),
  });
  res.end(bytes);
});
server.listen(port, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
