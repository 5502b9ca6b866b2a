// node bench/quota-callgrind.ts — instructions per request of our server deciding a quota in
// memory, on Redis with leases, and on Redis with one round trip per request (REDIS_LEASE_MAX=1),
// counted by valgrind's callgrind: an instruction count does not move with the other work on a
// shared machine, where req/s and CPU time do. Each server runs under callgrind, takes a warm-up
// (so V8 has compiled the hot path), then the counters are zeroed (callgrind_control -z), a fixed
// number of keyed lookups is sent, and the counters are dumped; instructions ÷ requests, also net
// of the instance's idle work (counted in an idle stretch after). Decisions that waited for Redis
// come from the server's /metrics (tai_quota_redis_decisions_total); Redis's own CPU is not in the
// instruction count. Options (env): CG_REQUESTS (2000), CG_WARMUP (3000), CG_CONNECTIONS (4),
// CG_IDLE_SECONDS (30), BENCH_REDIS_URL (redis://127.0.0.1:6379). Needs `npm run build` and
// valgrind.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchKey, ourServerEnv } from './processes.ts';

const REQUESTS = Number(process.env['CG_REQUESTS'] ?? 2000);
const WARMUP = Number(process.env['CG_WARMUP'] ?? 3000);
const CONNECTIONS = Number(process.env['CG_CONNECTIONS'] ?? 4);
const IDLE_SECONDS = Number(process.env['CG_IDLE_SECONDS'] ?? 30);
const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// valgrind names its vgdb pipes after $HOST: the server's HOST must be the one callgrind_control sees.
const HOST = '127.0.0.1';

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, HOST, r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** `n` keyed GETs of `url` over `CONNECTIONS` keep-alive connections; throws on anything but 200. */
async function send(url: string, key: string, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let left = n;
  const loop = async () => {
    while (left-- > 0) {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(url, { agent, headers: { 'x-api-key': key } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          })
          .on('error', reject);
      });
      if (status !== 200) throw new Error(`${url}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  agent.destroy();
}

const callgrind = (args: string[]) =>
  execFileSync('callgrind_control', args, { env: { ...process.env, HOST } }).toString();

/** Dumps the counters and reads the instructions counted since they were last zeroed. */
function dumped(pid: number, out: string): number {
  callgrind(['-d', String(pid)]);
  const dump = readdirSync(out)
    .filter((f) => /^callgrind\.out\.\d+$/.test(f))
    .sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1)))
    .at(-1)!;
  return Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(path.join(out, dump), 'utf8'))![1]);
}

async function measure(name: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-cg-'));
  const key = benchKey(dataDir);
  const port = await freePort();
  const out = mkdtempSync(path.join(tmpdir(), 'tai-cg-out-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}/callgrind.out`,
      process.execPath,
      'src/server/main.ts',
    ],
    {
      env: {
        ...process.env,
        ...ourServerEnv(dataDir),
        // Under callgrind everything is ~50× slower: database deadlines and the key cache
        // stretched so that the key check answers from memory, as it does at full speed.
        DB_QUERY_TIMEOUT_MS: '60000',
        KEY_CACHE_MS: '60000',
        ...env,
        PORT: String(port),
        HOST,
      },
      stdio: 'ignore',
    },
  );
  const base = `http://${HOST}:${port}`;
  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error(`${name}: did not start under valgrind in 10 minutes`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const profiles = readFileSync('dist/client/internal/registry-profiles.ndjson', 'utf8');
    const lookup = `${base}/v1/registry/asset?tfin=${profiles.slice(0, profiles.indexOf('\t'))}`;
    await send(lookup, key, 1);
    await send(lookup, key, WARMUP);
    const roundTrips = async () =>
      Number(
        /^tai_quota_redis_decisions_total (\d+)$/m.exec(
          await (await fetch(`${base}/metrics`)).text(),
        )?.[1] ?? 0,
      );
    const before = await roundTrips();
    callgrind(['-z', String(child.pid)]);
    const t0 = Date.now();
    await send(lookup, key, REQUESTS);
    const busyMs = Date.now() - t0;
    const ir = dumped(child.pid!, out);
    const waited = (await roundTrips()) - before;
    // The instance's own timers (metering flush, heartbeat, lease returns) run by the clock, and
    // under callgrind a second holds ~50× fewer requests: their count in an idle stretch is
    // taken out, at the same rate, from the busy one.
    callgrind(['-z', String(child.pid)]);
    const i0 = Date.now();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idlePerMs = dumped(child.pid!, out) / (Date.now() - i0);
    return {
      name,
      irPerRequest: ir / REQUESTS,
      netPerRequest: (ir - idlePerMs * busyMs) / REQUESTS,
      idlePerSecond: idlePerMs * 1000,
      waitedPerRequest: waited / REQUESTS,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

const prefix = `tai-bench-cg-${randomUUID().slice(0, 8)}`;
// The three run side by side (instruction counts do not depend on what else runs).
const results = await Promise.all(
  (
    [
      ['in memory', { REDIS_URL: '' }],
      ['Redis, leases', { REDIS_URL, REDIS_KEY_PREFIX: `${prefix}-a` }],
      ['Redis, no lease', { REDIS_URL, REDIS_KEY_PREFIX: `${prefix}-b`, REDIS_LEASE_MAX: '1' }],
    ] as const
  ).map(async ([name, env]) => {
    const m = await measure(name, env);
    console.error(`${name}: ${Math.round(m.irPerRequest)} instructions/request`);
    return m;
  }),
);
const memory = results[0]!;
const k = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  [
    `Instructions per keyed lookup (callgrind, ${REQUESTS} requests after ${WARMUP} of warm-up, ${CONNECTIONS} connections; net: less the instance's idle instructions per second, counted over ${IDLE_SECONDS} s, for as long as the requests took):`,
    '',
    '| quota | instructions/request | net of idle work | net vs in memory | idle instructions/s | decisions that waited for Redis, per request |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${k(r.irPerRequest)} | ${k(r.netPerRequest)} | ${(memory.netPerRequest / r.netPerRequest).toFixed(2)} | ${k(r.idlePerSecond)} | ${r.waitedPerRequest.toFixed(3)} |`,
    ),
  ].join('\n'),
);
