// npm run bench:reconcile — issue #29 item 3: our origin against the minimal baseline (a node:http
// server writing the same bytes with the fewest header fields, bench/baseline-server.ts), and why
// an outside measurement and `npm run bench` disagree. Three parts, pinned as the bench is:
//
// 1. What each header field of ours weighs: our responses replayed byte for byte
//    (bench/replay-server.ts), and replayed without one field at a time (REPLAY_DROP). A field's
//    cost is the server time per request it adds, 1/req/s with it minus 1/req/s without it, on a
//    saturated pinned core (median over rounds); the pipeline's cost is ours against the replay.
// 2. The load generator: ours and the minimal server under wrk and under autocannon.
// 3. Warm-up: fresh processes of ours and of the minimal server measured from their first
//    second, run by run. A fresh server of ours needs seconds of load before V8 has compiled its
//    (much larger) hot path; the parts above run after 2 s of warm-up per server and workload.
//
// Options (env): RECONCILE_ROUNDS (5), RECONCILE_SECONDS (2), RECONCILE_FRESH_RUNS (8),
// BENCH_CONNECTIONS (50). Needs a build (dist/client); wrk (`apt-get install wrk`) for part 2.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { captureResponses, type CapturedResponse } from './capture.ts';
import { loadGenerator, loadGenerators, type LoadGenerator } from './load.ts';
import { placement } from './pin.ts';
import {
  benchKey,
  cpuSeconds,
  median,
  ourServerEnv,
  startProcess,
  type Running,
} from './processes.ts';

const ROUNDS = Number(process.env['RECONCILE_ROUNDS'] ?? 5);
const SECONDS = Number(process.env['RECONCILE_SECONDS'] ?? 2);
const FRESH_RUNS = Number(process.env['RECONCILE_FRESH_RUNS'] ?? 8);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
/** Fields every variant keeps: without them the response is not the same representation. */
const ESSENTIAL = new Set(['content-type', 'content-length', 'content-encoding', 'etag']);

interface Workload {
  name: string;
  url: string;
  headers: Record<string, string>;
  expect: number;
}

interface Sample {
  rps: number;
  cpuUs: number;
}

async function measure(gen: LoadGenerator, s: Running, w: Workload): Promise<Sample> {
  const before = cpuSeconds(s.pid);
  const r = await gen.run(`${s.url}${w.url}`, w.headers, SECONDS, CONNECTIONS);
  if (r.statusMismatch(w.expect))
    throw new Error(`${s.name} ${w.name}: expected ${w.expect}, got ${r.statuses}`);
  return { rps: r.rps, cpuUs: ((cpuSeconds(s.pid) - before) * 1e6) / r.requests };
}

/** Alternating rounds over `servers`; samples per server name. */
async function rounds(
  gen: LoadGenerator,
  servers: Running[],
  w: Workload,
  count: number,
  /** The request a server is sent (the minimal server's 304 needs its own ETag). */
  requestFor: (s: Running, w: Workload) => Workload = (_, x) => x,
): Promise<Map<string, Sample[]>> {
  const out = new Map<string, Sample[]>();
  for (let round = 1; round <= count; round++) {
    const order = round % 2 === 0 ? [...servers].reverse() : servers;
    for (const s of order)
      out.set(s.name, [...(out.get(s.name) ?? []), await measure(gen, s, requestFor(s, w))]);
    process.stderr.write(`${w.name}: round ${round}/${count}\n`);
  }
  return out;
}

const ratioOf = (a: Sample[], b: Sample[]) => median(a.map((x, i) => x.rps / b[i]!.rps));
/** Server µs per request that `a` spends over `b`, from throughput on the saturated core. */
const extraUs = (a: Sample[], b: Sample[]) =>
  median(a.map((x, i) => 1e6 / x.rps - 1e6 / b[i]!.rps));

/** The three parts, as report lines (a `#`-level title first; `npm run bench` demotes it). */
export async function runReconcile(): Promise<string[]> {
  const client = path.resolve('dist', 'client');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-reconcile-'));
  const logDir = mkdtempSync(path.join(tmpdir(), 'tai-reconcile-logs-'));
  const key = benchKey(dataDir);
  const gen = loadGenerator();
  const profiles = readFileSync(path.join(client, 'internal/registry-profiles.ndjson'), 'utf8');
  const tfin = profiles.slice(0, profiles.indexOf('\t'));
  const lines: string[] = [
    `# Reconciling the origin with the minimal baseline, ${new Date().toISOString()}`,
    '',
    `${gen.name}, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds; ${placement()}.`,
    '',
  ];
  const servers: Running[] = [];
  const start = async (name: string, args: string[], env: Record<string, string> = {}) => {
    // Our server's access log goes to a file, as in the bench; the baselines print their port.
    const log = name.startsWith('ours') ? path.join(logDir, `${name}.log`) : undefined;
    const s = await startProcess(name, args, env, log);
    servers.push(s);
    return s;
  };
  try {
    const ours = await start('ours', ['src/server/main.ts'], ourServerEnv(dataDir));
    const etag = String(
      (
        await fetch(`${ours.url}/v1/registry/assets`, { headers: { 'X-API-Key': key } })
      ).headers.get('etag'),
    );
    const minimal = await start('minimal', ['bench/baseline-server.ts', client, '0']);
    const minimalEtag = String(
      (await fetch(`${minimal.url}/v1/registry/assets`)).headers.get('etag'),
    );
    const workloads: Workload[] = [
      {
        name: 'lookup hit',
        url: `/v1/registry/asset?tfin=${tfin}`,
        headers: { 'X-API-Key': key },
        expect: 200,
      },
      {
        name: 'conditional (304)',
        url: '/v1/registry/assets',
        headers: { 'X-API-Key': key, 'If-None-Match': etag },
        expect: 304,
      },
    ];
    // The minimal server's 304 needs its own ETag; everything else is the same request.
    const forMinimal = (w: Workload): Workload =>
      w.expect === 304 ? { ...w, headers: { ...w.headers, 'If-None-Match': minimalEtag } } : w;

    // Part 1: the weight of each field.
    const replayFile = path.join(logDir, 'replay.json');
    await captureResponses(ours.url, workloads, replayFile);
    const captured = JSON.parse(readFileSync(replayFile, 'utf8')) as CapturedResponse[];
    const fields = [
      ...new Set(
        captured.flatMap((c) =>
          c.headers.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
        ),
      ),
    ].filter((f) => !ESSENTIAL.has(f));
    const replay = await start('replay', ['bench/replay-server.ts', replayFile, '0']);
    const essentials = await start(
      'replay-essential',
      ['bench/replay-server.ts', replayFile, '0'],
      {
        REPLAY_DROP: fields.join(','),
      },
    );
    const without: Running[] = [];
    for (const f of fields)
      without.push(
        await start(`replay-without-${f}`, ['bench/replay-server.ts', replayFile, '0'], {
          REPLAY_DROP: f,
        }),
      );
    for (const w of workloads)
      for (const s of servers)
        await gen.run(
          `${s.url}${w.url}`,
          (s === minimal ? forMinimal(w) : w).headers,
          2,
          CONNECTIONS,
        );

    for (const w of workloads) {
      // "Name: value\r\n" per field.
      const bytes = (c: CapturedResponse) => c.headers.reduce((n, v) => n + v.length + 2, 0);
      const c = captured.find((x) => x.status === w.expect)!;
      const all = [ours, replay, essentials, minimal];
      const base = await rounds(gen, all, w, ROUNDS, (s, x) => (s === minimal ? forMinimal(x) : x));
      lines.push(
        `## ${w.name} (${c.headers.length / 2} header fields, ${bytes(c)} bytes of them, besides Date, Connection and Keep-Alive)`,
        '',
        '| server | req/s | CPU µs/req | vs minimal | µs/req over minimal |',
        '|---|---:|---:|---:|---:|',
      );
      for (const name of ['ours', 'replay', 'replay-essential', 'minimal']) {
        const xs = base.get(name)!;
        lines.push(
          `| ${name} | ${Math.round(median(xs.map((x) => x.rps)))} | ${median(xs.map((x) => x.cpuUs)).toFixed(1)} | ${ratioOf(xs, base.get('minimal')!).toFixed(2)} | ${extraUs(xs, base.get('minimal')!).toFixed(1)} |`,
        );
      }
      const perField = await rounds(gen, [replay, ...without], w, ROUNDS);
      lines.push(
        '',
        `Each field's weight: replay with all fields against replay without that one (µs of server time per request; the pipeline itself, ours over replay: ${extraUs(base.get('ours')!, base.get('replay')!).toFixed(1)} µs).`,
        '',
        '| field | bytes | µs/req |',
        '|---|---:|---:|',
      );
      for (const f of fields) {
        const at = c.headers.findIndex((v, i) => i % 2 === 0 && v.toLowerCase() === f);
        if (at < 0) continue;
        lines.push(
          `| ${c.headers[at]} | ${c.headers[at]!.length + c.headers[at + 1]!.length + 4} | ${extraUs(perField.get('replay')!, perField.get(`replay-without-${f}`)!).toFixed(2)} |`,
        );
      }
      lines.push('');
    }

    // Part 2: the same pair under each load generator (a generator near its own ceiling reads
    // every server as about as fast as the fastest).
    lines.push(
      '## The load generator',
      '',
      '| generator | workload | ours req/s | minimal req/s | ours vs minimal |',
      '|---|---|---:|---:|---:|',
    );
    for (const g of loadGenerators())
      for (const w of workloads) {
        const got = await rounds(g, [ours, minimal], w, ROUNDS, (s, x) =>
          s === minimal ? forMinimal(x) : x,
        );
        const o = got.get('ours')!;
        const m = got.get('minimal')!;
        lines.push(
          `| ${g.name} | ${w.name} | ${Math.round(median(o.map((x) => x.rps)))} | ${Math.round(median(m.map((x) => x.rps)))} | ${ratioOf(o, m).toFixed(2)} |`,
        );
      }
    lines.push('');

    // Part 3: fresh processes, no warm-up, run by run (the first runs are the JIT's).
    const freshOurs = await start('ours-fresh', ['src/server/main.ts'], ourServerEnv(dataDir));
    const freshMinimal = await start('minimal-fresh', ['bench/baseline-server.ts', client, '0']);
    const w = workloads[0]!;
    lines.push(
      `## Warm-up: fresh processes, ${w.name}, ${FRESH_RUNS} runs of ${SECONDS} s each, alternating, from the first request`,
      '',
      '| run | ours req/s | minimal req/s | ratio |',
      '|---:|---:|---:|---:|',
    );
    for (let run = 1; run <= FRESH_RUNS; run++) {
      const pair = run % 2 ? [freshOurs, freshMinimal] : [freshMinimal, freshOurs];
      const got = new Map<string, Sample>();
      for (const s of pair) got.set(s.name, await measure(gen, s, w));
      const o = got.get('ours-fresh')!.rps;
      const m = got.get('minimal-fresh')!.rps;
      lines.push(`| ${run} | ${Math.round(o)} | ${Math.round(m)} | ${(o / m).toFixed(2)} |`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return lines;
}

// `npm run bench:reconcile` runs it alone and writes its own report.
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = (await runReconcile()).join('\n');
  mkdirSync(path.resolve('bench', 'results'), { recursive: true });
  const out = path.resolve(
    'bench',
    'results',
    `${new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-')}-reconcile.md`,
  );
  writeFileSync(out, `${report}\n`);
  console.log(`${report}\n\nwritten to ${path.relative(process.cwd(), out)}`);
}
