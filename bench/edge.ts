// npm run bench, issue 16: what the edge and the shared quota cost, each measured in one run of
// alternating rounds (the order of the servers flips every round) and reported as medians and as
// medians of the per-round ratios.
//
// (a) The unfiltered registry list and its bulk files (CSV, NDJSON; identity), keyed: through the
//     nginx edge (deploy/nginx/tai-edge.conf.template rendered as docs/production.md "Running in production"
//     does, in a temporary directory; auth_request to our server with EDGE_AUTH_TOKEN, its
//     decisions reused for EDGE_AUTH_CACHE_SECONDS and the reused ones charged to our server
//     over syslog), against nginx alone serving the same files (no key, no auth) and against our
//     server answering directly. `node bench/edge.ts` runs this section alone.
// (b) The Redis quota: a keyed lookup on our server with REDIS_URL (a bench key prefix, removed
//     afterwards), spending leases and with one round trip per request, against the same server
//     without it (the in-memory limiter).
// (c) No stall (bench/edge-stall.ts): one of two instances SIGSTOPped behind the edge.
// Each is skipped, with a line saying why, when nginx or Redis is absent.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stallSection } from './edge-stall.ts';
import { releaseName, signedUrl } from '../src/server/signed-downloads.ts';
import type { LoadGenerator, LoadResult } from './load.ts';
import { pinned } from './pin.ts';
import { recordTarget } from './targets.ts';
import {
  benchKey,
  benchKeyRecord,
  cpuSeconds,
  median,
  ourServerEnv,
  startProcess,
} from './processes.ts';

/**
 * The pid of the worker of the nginx running with prefix `dir`: it does the serving, measure it
 * (not the cache manager and loader a proxy_cache_path adds beside it).
 */
export function nginxWorker(dir: string): number {
  const master = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8'));
  const children = execFileSync('pgrep', ['-P', String(master)])
    .toString()
    .trim()
    .split('\n')
    .map(Number);
  const worker = children.find((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('worker process'),
  );
  if (worker === undefined) throw new Error(`no nginx worker under ${master}`);
  return worker;
}

export interface EdgeBenchOptions {
  seconds: number;
  rounds: number;
  connections: number;
  /** dist/client of the build under test. */
  client: string;
}

interface Proc {
  name: string;
  url: string;
  /** Processes whose CPU time is the cost of an answer (the edge: nginx's worker and ours). */
  pids: number[];
  stop(): Promise<void>;
}

const TOKEN = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
const NGINX_BIN = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function startOurs(name: string, env: Record<string, string>, log: string): Promise<Proc> {
  const ours = await startProcess(name, ['src/server/main.ts'], env, log);
  return { name, url: ours.url, pids: [ours.pid], stop: ours.stop };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const reachable = (port: number, host = '127.0.0.1') =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, host, () => (s.destroy(), resolve(true)));
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
    s.on('error', () => resolve(false));
  });

/**
 * One nginx (one worker) with two servers: the edge as deployed (the template rendered with
 * envsubst, our instance its upstream) and a plain static server on the same files.
 */
/**
 * Candidate (a) of issue #37 as the API hands it out (src/server/signed-downloads.ts): a signed
 * URL of the file, for the bench's key, checked by the template's /downloads/ location and
 * charged to our instance's charge log (valid for the run: an hour).
 */
export function benchSignedUrl(
  client: string,
  file: string,
  charge: { id: string; prefix: string; op: string; chargeLog: string },
): string {
  return signedUrl(
    {
      file: file.slice(1),
      id: charge.id,
      tier: 'institutional',
      prefix: charge.prefix,
      op: charge.op,
      release: releaseName(path.dirname(realpathSync(client))),
      chargeLog: charge.chargeLog,
      expires: Math.floor(Date.now() / 1000) + 3600,
    },
    TOKEN,
  );
}

async function startNginx(
  client: string,
  upstreamPort: number,
  chargeDir: string,
): Promise<[Proc, Proc, Proc]> {
  const { renderEdge, upstreamsFor } = await import('../test/helpers/nginx.ts');
  const dir = mkdtempSync(path.join(tmpdir(), 'tai-bench-edge-'));
  const [edgePort, alonePort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, 'tai-edge.conf'),
    renderEdge({
      TAI_LISTEN: `127.0.0.1:${edgePort}`,
      TAI_DIST_CLIENT: client,
      TAI_UPSTREAMS: upstreamsFor([upstreamPort]),
      TAI_EDGE_TOKEN: TOKEN,
      TAI_ACCESS_LOG: `${dir}/tai-edge.access.log`,
      TAI_AUTH_CACHE: `${dir}/auth-cache`,
      TAI_CHARGE_DIR: chargeDir,
      // Measured without the access log file, as the plain static server beside it; the
      // charge log's lines stay (they are part of what the edge costs).
    }).replaceAll(/access_log \S+ tai_edge;/g, ''),
  );
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${user}worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off; keepalive_requests 100000;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  include ${dir}/tai-edge.conf;
  server {
    listen 127.0.0.1:${alonePort};
    sendfile on; tcp_nopush on;
    root ${client};
    location /v1/ { default_type application/json; }
  }
}`,
  );
  const [command, argv] = pinned('server', NGINX_BIN!, [
    '-c',
    path.join(dir, 'nginx.conf'),
    '-p',
    dir,
  ]);
  const child = spawn(command, argv, { stdio: 'ignore' });
  for (let i = 0; !(await reachable(edgePort)) || !(await reachable(alonePort)); i++) {
    if (child.exitCode !== null || i > 100)
      throw new Error(`nginx did not start: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const worker = nginxWorker(dir);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGQUIT');
    }));
  return [
    { name: 'edge', url: `http://127.0.0.1:${edgePort}`, pids: [worker], stop },
    { name: 'nginx alone', url: `http://127.0.0.1:${alonePort}`, pids: [worker], stop },
    { name: 'signed URL', url: `http://127.0.0.1:${edgePort}`, pids: [worker], stop },
  ];
}

interface Contender {
  proc: Proc;
  headers: Record<string, string>;
  path: string;
}

/** A run's CPU per request split by process (the edge: nginx's worker, then ours). */
type PartedResult = LoadResult & { cpuMsParts?: number[] };

/** Alternating rounds over the contenders; every run must answer 200. */
async function rounds(
  gen: LoadGenerator,
  opts: EdgeBenchOptions,
  label: string,
  contenders: Contender[],
): Promise<Map<string, LoadResult[]>> {
  const results = new Map<string, LoadResult[]>();
  // Each process warmed up first (JIT, connections), unmeasured.
  for (const c of contenders)
    await gen.run(`${c.proc.url}${c.path}`, c.headers, 1, opts.connections);
  for (let round = 1; round <= opts.rounds; round++) {
    const order = round % 2 === 0 ? [...contenders].reverse() : contenders;
    for (const c of order) {
      const before = c.proc.pids.map(cpuSeconds);
      const r = await gen.run(`${c.proc.url}${c.path}`, c.headers, opts.seconds, opts.connections);
      const parts = c.proc.pids.map((pid, i) => cpuSeconds(pid) - before[i]!);
      const cpu = parts.reduce((n, p) => n + p, 0);
      r.cpuMsPerRequest = r.requests ? (cpu * 1000) / r.requests : NaN;
      (r as PartedResult).cpuMsParts = parts.map((p) =>
        r.requests ? (p * 1000) / r.requests : NaN,
      );
      if (r.statusMismatch(200))
        throw new Error(`${label} ${c.proc.name}: expected 200, got ${r.statuses}`);
      results.set(c.proc.name, [...(results.get(c.proc.name) ?? []), r]);
      process.stdout.write(
        `round ${round} ${label.padEnd(26)} ${c.proc.name.padEnd(16)} ${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99Ms.toFixed(2)} ms\n`,
      );
    }
  }
  return results;
}

const fmt = (n: number | null | undefined, d = 0) =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : n.toFixed(d);

/** The median of the per-round req/s ratios of `a` to `b`. */
function ratioOf(results: Map<string, LoadResult[]>, a: string, b: string): number | null {
  const x = results.get(a);
  const y = results.get(b);
  return x && y ? median(x.map((r, i) => r.rps / y[i]!.rps)) : null;
}

function table(results: Map<string, LoadResult[]>, names: string[], against: string[]): string[] {
  const ratio = (a: string, b: string) => ratioOf(results, a, b);
  const lines = [
    `| server | req/s | p50 ms | p99 ms | CPU µs/req | ${against.map((a) => `vs ${a}`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|${against.map(() => '---:|').join('')}`,
  ];
  for (const name of names) {
    const rs = results.get(name)!;
    const m = (f: (r: LoadResult) => number) => median(rs.map(f));
    lines.push(
      `| ${name} | ${fmt(m((r) => r.rps))} | ${fmt(
        m((r) => r.p50Ms),
        2,
      )} | ${fmt(
        m((r) => r.p99Ms),
        2,
      )} | ${fmt(m((r) => r.cpuMsPerRequest) * 1000)} | ${against
        .map((a) => fmt(a === name ? 1 : ratio(name, a), 2))
        .join(' | ')} |`,
    );
  }
  return lines;
}

/** The dataset bodies the edge sends: the registry list and its bulk files (identity). */
const EDGE_WORKLOADS = [
  { label: 'registry list', accept: undefined, file: '/v1/registry/assets' },
  { label: 'registry CSV', accept: 'text/csv', file: '/v1/bulk/registry-assets-csv' },
  {
    label: 'registry NDJSON',
    accept: 'application/x-ndjson',
    file: '/v1/bulk/registry-assets-ndjson',
  },
] as const;

/**
 * One GET on a connection of its own: fetch's pooled sockets outlive a server's keep-alive
 * timeout across the rounds, and a reused closed one fails the check.
 */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface EdgeCounts {
  decisions: number;
  charged: number;
  lost: number;
  /** Charge log bytes written by the edge and not yet read. */
  pendingBytes: number;
  /** Charges billed but not counted against the quota. */
  unquota: number;
}

/** Our server's edge counters (tai_edge_decisions_total, tai_edge_charges_*). */
async function edgeCounts(url: string): Promise<EdgeCounts> {
  const text = (await get(`${url}/metrics`, {})).body.toString();
  const sum = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
  const charges = (result: string) =>
    Number(
      new RegExp(`^tai_edge_charges_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ??
        0,
    );
  return {
    decisions: sum('tai_edge_decisions_total'),
    charged: charges('charged'),
    lost: charges('lost'),
    pendingBytes: sum('tai_edge_charges_pending_bytes'),
    unquota: sum('tai_edge_charges_unquota_total'),
  };
}

/**
 * Counts every line the edge writes to the charge logs in `dir`, across the reader's rotations:
 * at 64 MB ours renames a log to `….log.old` and removes it once drained, so the files left at
 * the end hold only the lines since the last rotation. Each log file (inode) is hard-linked into
 * `dir/kept/` as soon as it appears (a rotated file lives at least 3 s after its rename; a poll
 * every 100 ms sees it), and the lines are counted across the kept inodes.
 */
function keepChargeFiles(dir: string): { stop(): void; lines(): number } {
  const keptDir = path.join(dir, 'kept');
  mkdirSync(keptDir, { recursive: true });
  const poll = () => {
    for (const f of readdirSync(dir)) {
      if (!/\.log(\.old)?$/.test(f)) continue;
      try {
        const kept = path.join(keptDir, String(statSync(path.join(dir, f)).ino));
        if (!existsSync(kept)) linkSync(path.join(dir, f), kept);
      } catch (err) {
        // Removed between the listing and the link: it was linked at an earlier poll.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  };
  poll();
  const timer = setInterval(poll, 100);
  timer.unref();
  return {
    stop: () => {
      poll();
      clearInterval(timer);
    },
    lines: () =>
      readdirSync(keptDir).reduce((n, f) => {
        const bytes = readFileSync(path.join(keptDir, f));
        let count = 0;
        for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) count++;
        return n + count;
      }, 0),
  };
}

export async function edgeSection(gen: LoadGenerator, opts: EdgeBenchOptions): Promise<string[]> {
  const head = '## The registry list and its bulk files through the edge (identity, keyed)';
  if (!NGINX_BIN)
    return [head, '', 'Skipped: nginx is not installed (apt-get install nginx-light).'];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-edge-data-'));
  const { id: keyId, key } = benchKeyRecord(dataDir);
  const chargeDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-edge-charges-'));
  const ours = await startOurs(
    'ours direct',
    {
      ...ourServerEnv(dataDir),
      EDGE_AUTH_TOKEN: TOKEN,
      EDGE_CHARGE_DIR: chargeDir,
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    path.join(dataDir, 'ours.log'),
  );
  const procs: Proc[] = [ours];
  try {
    const [edge, alone, signed] = await startNginx(
      opts.client,
      Number(new URL(ours.url).port),
      chargeDir,
    );
    procs.push(edge);
    // The edge's cost is nginx's worker and ours (the decisions and the charges); a signed URL's
    // is nginx's worker and ours charging its line.
    edge.pids.push(...ours.pids);
    signed.pids = [...signed.pids, ...ours.pids];
    const list = '/v1/registry/assets';
    const charge = {
      id: keyId,
      prefix: key.slice(0, 15),
      op: list,
      chargeLog: new URL(ours.url).port,
    };
    const lines = [
      head,
      '',
      `The edge (deploy/nginx template: auth_request to ours, decisions reused for EDGE_AUTH_CACHE_SECONDS (2 s), each reused one written to ours's charge log and charged by ours) and our server with an institutional key, nginx alone (the same file, sendfile, no auth) without. CPU of the edge = nginx's worker + ours (decisions and charges). Target: the edge ≥ 0.8 of nginx alone in req/s.`,
    ];
    const before = await edgeCounts(ours.url);
    const chargeFiles = keepChargeFiles(chargeDir);
    let edgeRequests = 0;
    for (const w of EDGE_WORKLOADS) {
      const keyed: Record<string, string> = { 'X-API-Key': key };
      if (w.accept) keyed['Accept'] = w.accept;
      // The same bytes from each, or the comparison means nothing.
      const bodies = await Promise.all(
        (
          [
            [edge, keyed, list],
            [alone, {}, w.file],
            [signed, {}, benchSignedUrl(opts.client, w.file, charge)],
            [ours, keyed, list],
          ] as const
        ).map(async ([p, h, target]) => {
          const r = await get(`${p.url}${target}`, h);
          if (r.status !== 200) throw new Error(`${p.name}: ${r.status} for ${target}`);
          return r.body;
        }),
      );
      if (!bodies.every((b) => b.equals(bodies[0]!)))
        throw new Error(
          `the edge, nginx alone and ours answer the ${w.label} with different bytes`,
        );
      const results = await rounds(gen, opts, `${w.label} via edge`, [
        { proc: edge, headers: keyed, path: list },
        { proc: alone, headers: {}, path: w.file },
        { proc: signed, headers: {}, path: benchSignedUrl(opts.client, w.file, charge) },
        { proc: ours, headers: keyed, path: list },
      ]);
      edgeRequests += results.get('edge')!.reduce((n, r) => n + r.requests, 0);
      for (const name of ['edge', 'signed URL'])
        recordTarget({
          issue: '#37 item 3',
          name: `${w.label} (${bodies[0]!.length} bytes), ${name === 'edge' ? 'through the edge, keyed' : 'signed download URL'} vs nginx alone, req/s`,
          value: ratioOf(results, name, 'nginx alone'),
          bound: 0.8,
          op: '≥',
          unit: '×',
        });
      const part = (i: number) =>
        fmt(median(results.get('edge')!.map((r) => (r as PartedResult).cpuMsParts![i]!)) * 1000);
      lines.push(
        '',
        `### ${w.label}: ${bodies[0]!.length} bytes${w.accept ? ` (Accept: ${w.accept}; nginx alone sends ${w.file})` : ''}`,
        '',
        ...table(
          results,
          ['edge', 'signed URL', 'nginx alone', 'ours direct'],
          ['nginx alone', 'ours direct'],
        ),
        '',
        `The edge's CPU per request: nginx's worker ${part(0)} µs, ours ${part(1)} µs (medians).`,
      );
    }
    // Every request through the edge was either decided by ours or charged to it (the warm-up
    // runs and the byte checks included): how many asked ours.
    // Until ours has read every line the edge wrote (it reads from a durable offset, behind).
    let after = await edgeCounts(ours.url);
    for (let i = 0; i < 100 && after.pendingBytes > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await edgeCounts(ours.url);
    }
    const decisions = after.decisions - before.decisions;
    const charged = after.charged - before.charged;
    chargeFiles.stop();
    const written = chargeFiles.lines();
    lines.push(
      '',
      `Ours decided ${decisions} of the edge's requests and charged ${charged} lines from its charge log (the edge's answers from reused decisions and the signed URLs' downloads; ${edgeRequests} edge requests measured, the rest warm-up and checks). The edge wrote ${written} charge lines; ${after.lost} were lost (not a charge), ${after.pendingBytes} bytes were still unread, and ${after.unquota} charges were billed without being counted against the quota.`,
    );
    recordTarget({
      issue: '#37 item 2',
      name: 'charge lines the edge wrote and ours did not bill (written − charged), under the bench load',
      value: written - after.charged,
      bound: 0,
      op: '=',
      unit: '',
    });
    recordTarget({
      issue: '#37 item 2',
      name: 'charges billed but not counted against the quota',
      value: after.unquota,
      bound: 0,
      op: '=',
      unit: '',
    });
    return lines;
  } finally {
    for (const p of procs) await p.stop();
    // The kept charge logs hold every line of the run (tens of MB).
    rmSync(chargeDir, { recursive: true, force: true });
  }
}

/** The Redis quota's cost: leases (the default), a round trip per request (REDIS_LEASE_MAX=1), memory. */
export async function redisSection(gen: LoadGenerator, opts: EdgeBenchOptions): Promise<string[]> {
  const head = '## The Redis quota per request (lookup hit, keyed)';
  const url = new URL(REDIS_URL);
  if (!(await reachable(Number(url.port || 6379), url.hostname)))
    return [head, '', `Skipped: no Redis at ${REDIS_URL} (apt-get install redis-server).`];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-redis-'));
  const key = benchKey(dataDir);
  const prefix = `tai-bench-${randomUUID().slice(0, 8)}`;
  const procs: Proc[] = [];
  const names = ['Redis, leases', 'Redis, no lease', 'in memory'];
  try {
    const leases = await startOurs(
      names[0]!,
      { ...ourServerEnv(dataDir), REDIS_URL, REDIS_KEY_PREFIX: `${prefix}-a` },
      path.join(dataDir, 'redis.log'),
    );
    procs.push(leases);
    const perRequest = await startOurs(
      names[1]!,
      {
        ...ourServerEnv(dataDir),
        REDIS_URL,
        REDIS_KEY_PREFIX: `${prefix}-b`,
        REDIS_LEASE_MAX: '1',
      },
      path.join(dataDir, 'redis-1.log'),
    );
    procs.push(perRequest);
    const memory = await startOurs(
      names[2]!,
      { ...ourServerEnv(dataDir), REDIS_URL: '' },
      path.join(dataDir, 'memory.log'),
    );
    procs.push(memory);
    const profiles = readFileSync(
      path.join(opts.client, 'internal/registry-profiles.ndjson'),
      'utf8',
    );
    const lookup = `/v1/registry/asset?tfin=${profiles.slice(0, profiles.indexOf('\t'))}`;
    const keyed = { 'X-API-Key': key };
    for (const [p, backend] of [
      [leases, 'redis'],
      [perRequest, 'redis'],
      [memory, 'memory'],
    ] as const) {
      const ready = (await (await fetch(`${p.url}/readyz`)).json()) as {
        quotas?: { backend?: string; status?: string };
      };
      if (ready.quotas?.backend !== backend || ready.quotas.status !== 'ok')
        throw new Error(`${p.name}: quotas ${JSON.stringify(ready.quotas)}, expected ${backend}`);
    }
    const results = await rounds(
      gen,
      opts,
      'lookup hit, quota',
      [leases, perRequest, memory].map((proc) => ({ proc, headers: keyed, path: lookup })),
    );
    const cpu = (name: string) => median(results.get(name)!.map((r) => r.cpuMsPerRequest)) * 1000;
    recordTarget({
      issue: '#16',
      name: 'Redis quota with leases vs in memory, lookup hit req/s',
      value: ratioOf(results, names[0]!, names[2]!),
      bound: 0.9,
      op: '≥',
      unit: '×',
    });
    const short =
      opts.rounds * opts.seconds < 10 ? ' (too short a run to be more than a smoke test)' : '';
    return [
      head,
      '',
      `Our server with REDIS_URL=${REDIS_URL} spending leases (REDIS_LEASE_MAX ${process.env['REDIS_LEASE_MAX'] ?? '1000, the default'}), with REDIS_LEASE_MAX=1 (one round trip per request), and with the in-memory limiter; one institutional key, quota raised so nothing is refused; CPU is our server's (Redis's own not counted). Target: leases ≥ 0.9 of in memory.`,
      '',
      ...table(results, names, ['in memory']),
      '',
      `Our server's CPU per request minus in memory (medians): leases ${fmt(cpu(names[0]!) - cpu(names[2]!))} µs, no lease ${fmt(cpu(names[1]!) - cpu(names[2]!))} µs${short}.`,
    ];
  } finally {
    for (const p of procs) await p.stop();
    await clearPrefix(prefix).catch(() => undefined);
  }
}

/** Removes the bench's quota counters (they would expire with their window anyway). */
async function clearPrefix(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The three sections, as lines of the report. */
export async function runEdgeBench(gen: LoadGenerator, opts: EdgeBenchOptions): Promise<string[]> {
  const stall = await stallSection({
    seconds: opts.seconds * opts.rounds,
    clients: 8,
    client: opts.client,
  });
  return [...(await edgeSection(gen, opts)), '', ...stall, '', ...(await redisSection(gen, opts))];
}

// `node bench/edge.ts`: the edge section alone (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS).
if (import.meta.main) {
  const { loadGenerator } = await import('./load.ts');
  const lines = await edgeSection(loadGenerator(), {
    seconds: Number(process.env['BENCH_SECONDS'] ?? 2),
    rounds: Number(process.env['BENCH_ROUNDS'] ?? 5),
    connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
    client: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
  });
  console.log(`\n${lines.join('\n')}`);
}
