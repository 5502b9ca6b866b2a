// npm run bench, issue 37 item 4: refusals and searches that cannot starve paying clients. One
// instance of our server (the part being protected; the nginx edge in front of it is not in this
// section), started as the bench starts it (bench/processes.ts) with TRUST_PROXY=loopback so that
// X-Forwarded-For names the client, and the default limits on refusals (REFUSAL_LIMIT 300/60,
// FAILED_AUTH_LIMIT 20/300 per address).
//
// (T1) Throughput, alternating rounds: a keyed cached hit (a lookup answered from memory) against
//      floods of unauthenticated requests on the same path: unknown keys (well formed, valid
//      checksum, each one new to the server so it is looked up) and no key, each from one address
//      (the per-address limits answer 429 after a few hundred) and from many addresses (a random
//      X-Forwarded-For per request: every request pays the whole refusal). Target: each flood
//      ≥ 0.9 of the cached hits' req/s (refusals must be cheap).
// (T2) A keyed client (BENCH_REFUSALS_CLIENT_CONNECTIONS connections, 4 by default) on the cached
//      hit: its p99 alone, and while a flood runs beside it with BENCH_CONNECTIONS connections.
//      Target: ≤ 2× alone.
// (T3) The same client while another keyed client (its own key, quota raised) sends hostile q=
//      searches, unpaged, with BENCH_CONNECTIONS connections: the worst the bounds allow (eight
//      words, the most; common two-letter beginnings; long near-miss words that are matched with
//      one letter wrong; a last one-letter word, matched as the beginning of every word), each
//      target made distinct by trailing spaces so that no cached view answers. Target: ≤ 2× alone.
// Needs wrk (per-request targets and addresses come from a Lua script); skipped with a line
// saying why without it. `node bench/refusals.ts` runs this section alone (BENCH_SECONDS,
// BENCH_ROUNDS, BENCH_CONNECTIONS); BENCH_REFUSALS=0 skips it in `npm run bench`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey } from '../src/access/keys.ts';
import { hasWrk, runWrk, type LoadResult } from './load.ts';
import { recordTarget } from './targets.ts';
import { KEYED_WINDOW_MS } from '../src/server/refused-reads.ts';
import {
  benchKeyRecord,
  cpuSeconds,
  median,
  ourServerEnv,
  startProcess,
  type Running,
} from './processes.ts';

export interface RefusalBenchOptions {
  seconds: number;
  rounds: number;
  connections: number;
  /** dist/client of the build under test. */
  client: string;
}

const CLIENT_CONNECTIONS = Number(process.env['BENCH_REFUSALS_CLIENT_CONNECTIONS'] ?? 4);
/** Distinct unknown keys a flood rotates through: more than the key cache keeps fresh. */
const UNKNOWN_KEYS = 20_000;
/** wrk's timeout for the keyed client: a slow answer is measured, not dropped. */
const CLIENT_TIMEOUT_SECONDS = 30;

/**
 * The hostile searches, the worst the bounds allow (src/api/search.ts: at most MAX_SEARCH_WORDS = 8
 * words; a one-letter word other than the last matches only itself; words of six letters or more
 * match with one letter wrong; src/api/registry-list.ts: `q` at most 100 characters).
 */
export const HOSTILE_SEARCHES: { q: string; what: string }[] = [
  // Each is every word starting with it, intersected.
  { q: 'se to fu tr co in de t', what: 'eight common beginnings' },
  // Each walks the index with one letter wrong.
  {
    q: 'treasurz tokenisx stablecoix governmenz securitiez depositarx institutionz e',
    what: 'eight near misses',
  },
  // The beginning of every word that starts with it: most records, the whole list written.
  { q: 't', what: '"t"' },
  { q: 'a', what: '"a"' },
  { q: 'tfin e', what: '"tfin e" (every record)' },
  {
    q: Array.from({ length: 8 }, (_, i) => String.fromCharCode(97 + i).repeat(11)).join(' '),
    what: 'eight words of 11 letters (the length bound)',
  },
];
export const HOSTILE_QUERIES = HOSTILE_SEARCHES.map((h) => h.q);
/** `q`'s bound in characters (src/api/registry-list.ts). */
const MAX_Q = 100;

interface Flood {
  name: string;
  headers: Record<string, string>;
  /** A Lua script per request (rotating keys, addresses, targets); none: the same request. */
  script?: string;
  /** The answers expected: 200, or "refused" (401 and 429; wrk tells only 2xx/3xx from the rest). */
  expect: 200 | 401;
}

const lua = (s: string) => JSON.stringify(s);

/**
 * A wrk Lua script: each request the next target and key of the lists, and, with `addresses`,
 * a random X-Forwarded-For in 10.0.0.0/8; with `rooms` (per target), up to that many trailing
 * word breaks (space , . - !) appended to it: a distinct URL, the same search.
 */
function script(
  dir: string,
  name: string,
  o: { targets: string[]; keys?: string[]; addresses?: boolean; rooms?: number[] },
): string {
  const file = path.join(dir, `${name}.lua`);
  writeFileSync(
    file,
    `local targets = { ${o.targets.map(lua).join(', ')} }
local keys = { ${(o.keys ?? []).map(lua).join(',\n')} }
local rooms = { ${(o.rooms ?? []).join(', ')} }
local breaks = { "+", ",", ".", "-", "!" }
local n = 0
math.randomseed(os.time())
request = function()
  n = n + 1
  local i = (n % #targets) + 1
  local target = targets[i]
  if #rooms > 0 then
    for _ = 1, math.random(0, rooms[i]) do target = target .. breaks[math.random(1, #breaks)] end
  end
  if #keys > 0 then wrk.headers["X-API-Key"] = keys[(n % #keys) + 1] end
  ${o.addresses ? 'wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255), math.random(1, 254))' : ''}
  return wrk.format(nil, target)
end
`,
  );
  return file;
}

/** Our server's answers so far by status (tai_http_requests_total summed over endpoints). */
async function statusCounts(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/^tai_http_requests_total\{[^}]*status="(\d+)"[^}]*\} (\d+)$/gm))
    counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + Number(m[2]));
  return counts;
}

const share = (before: Map<string, number>, after: Map<string, number>): string => {
  const diff = [...after].map(([s, n]) => [s, n - (before.get(s) ?? 0)] as const);
  const total = diff.reduce((t, [, n]) => t + n, 0);
  return diff
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${Math.round((100 * n) / total)} %`)
    .join(', ');
};

const fmt = (n: number | null | undefined, d = 0) =>
  n === null || n === undefined || Number.isNaN(n)
    ? '—'
    : n === Infinity
      ? 'no answer'
      : n.toFixed(d);

interface Setup {
  ours: Running;
  lookup: string;
  keyed: Record<string, string>;
  floods: Flood[];
  hostile: { headers: Record<string, string>; script: string };
}

async function setUp(opts: RefusalBenchOptions): Promise<Setup> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-refusals-'));
  const client = benchKeyRecord(dataDir).key;
  const hostileKey = benchKeyRecord(dataDir).key;
  const ours = await startProcess(
    'ours',
    ['src/server/main.ts'],
    // Every load comes from 127.0.0.1: the connection cap per address is off, as in edge.ts.
    { ...ourServerEnv(dataDir), TRUST_PROXY: 'loopback', MAX_CONNECTIONS_PER_ADDRESS: '0' },
    path.join(dataDir, 'ours.log'),
  );
  const profiles = readFileSync(
    path.join(opts.client, 'internal/registry-profiles.ndjson'),
    'utf8',
  );
  const lookup = `/v1/registry/asset?tfin=${profiles.slice(0, profiles.indexOf('\t'))}`;
  const unknown = Array.from({ length: UNKNOWN_KEYS }, () => generateKey().key);
  const one = { targets: [lookup], keys: unknown };
  const many = { ...one, addresses: true };
  const floods: Flood[] = [
    { name: 'cached hit (keyed)', headers: { 'X-API-Key': client }, expect: 200 },
    {
      name: 'unknown keys, one address',
      headers: {},
      script: script(dataDir, 'one', one),
      expect: 401,
    },
    { name: 'no key, one address', headers: {}, expect: 401 },
    {
      name: 'unknown keys, many addresses',
      headers: {},
      script: script(dataDir, 'many', many),
      expect: 401,
    },
    {
      name: 'no key, many addresses',
      headers: {},
      script: script(dataDir, 'many-no-key', { targets: [lookup], addresses: true }),
      expect: 401,
    },
  ];
  const targets = HOSTILE_QUERIES.map((q) => `/v1/registry/assets?q=${encodeURIComponent(q)}`);
  // Both paying keys are known good before any flood (the failed-auth block on 127.0.0.1 would
  // otherwise refuse a key it has never accepted, as it does for any new key from that address).
  for (const key of [client, hostileKey]) {
    const r = await fetch(`${ours.url}${lookup}`, { headers: { 'X-API-Key': key } });
    if (r.status !== 200) throw new Error(`the bench's key: ${r.status}`);
  }
  const hostile = {
    headers: { 'X-API-Key': hostileKey },
    script: script(dataDir, 'hostile-q', {
      targets,
      rooms: HOSTILE_QUERIES.map((q) => MAX_Q - q.length),
    }),
  };
  return { ours, lookup, keyed: { 'X-API-Key': client }, floods, hostile };
}

function check(r: LoadResult, expect: 200 | 401, what: string): void {
  if (r.statusMismatch(expect))
    throw new Error(
      `${what}: expected ${expect === 200 ? 'all 200' : 'all refused'}, got ${r.statuses}`,
    );
}

/** (T1) Alternating rounds of the cached hit and each flood, on the same instance. */
async function throughput(s: Setup, opts: RefusalBenchOptions) {
  const results = new Map<string, LoadResult[]>();
  const answered = new Map<string, Map<string, number>>();
  const url = `${s.ours.url}${s.lookup}`;
  for (const f of s.floods) await runWrk(url, f.headers, 1, opts.connections, { script: f.script });
  for (let round = 1; round <= opts.rounds; round++) {
    for (const f of round % 2 === 0 ? [...s.floods].reverse() : s.floods) {
      // Longer than the server's keyed window (KEYED_WINDOW_MS, src/server/refused-reads.ts): a flood
      // is measured by itself, not read in turns because the cached hits ran just before it.
      await new Promise((r) => setTimeout(r, KEYED_WINDOW_MS + 200));
      const [cpu, counts] = [cpuSeconds(s.ours.pid), await statusCounts(s.ours.url)];
      const r = await runWrk(url, f.headers, opts.seconds, opts.connections, { script: f.script });
      r.cpuMsPerRequest = r.requests ? ((cpuSeconds(s.ours.pid) - cpu) * 1000) / r.requests : NaN;
      check(r, f.expect, f.name);
      const after = await statusCounts(s.ours.url);
      const sum = answered.get(f.name) ?? new Map<string, number>();
      for (const [status, n] of after)
        sum.set(status, (sum.get(status) ?? 0) + n - (counts.get(status) ?? 0));
      answered.set(f.name, sum);
      results.set(f.name, [...(results.get(f.name) ?? []), r]);
      process.stdout.write(
        `round ${round} refusals: ${f.name.padEnd(30)} ${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99Ms.toFixed(2)} ms\n`,
      );
    }
  }
  return { results, answered };
}

interface Beside {
  name: string;
  headers: Record<string, string>;
  script?: string;
  path: string;
  expect: 200 | 401;
}

/** (T2, T3) The keyed client alone and beside each load, alternating rounds. */
async function latency(s: Setup, opts: RefusalBenchOptions, besides: (Beside | null)[]) {
  const client = new Map<string, LoadResult[]>();
  const beside = new Map<string, LoadResult[]>();
  const url = `${s.ours.url}${s.lookup}`;
  const name = (b: Beside | null) => b?.name ?? 'alone';
  for (let round = 1; round <= opts.rounds; round++) {
    for (const b of round % 2 === 0 ? [...besides].reverse() : besides) {
      // The load starts half a second before the client and ends half a second after it; its
      // failure is held until the client's run ends (not an unhandled rejection meanwhile).
      const load = b
        ? runWrk(`${s.ours.url}${b.path}`, b.headers, opts.seconds + 1, opts.connections, {
            script: b.script,
          }).then(
            (r) => ({ r }),
            (err: unknown) => ({ err }),
          )
        : null;
      if (load) await new Promise((r) => setTimeout(r, 500));
      const r = await runWrk(url, s.keyed, opts.seconds, CLIENT_CONNECTIONS, {
        timeoutSeconds: CLIENT_TIMEOUT_SECONDS,
      });
      // No answer within the run: the client was starved (a miss, never a p99 of 0).
      if (r.requests === 0) [r.p50Ms, r.p99Ms] = [Infinity, Infinity];
      const l = load && (await load);
      if (l && 'err' in l) throw l.err;
      check(r, 200, `the keyed client ${name(b)}`);
      client.set(name(b), [...(client.get(name(b)) ?? []), r]);
      if (l && b) {
        check(l.r, b.expect, `${b.name} beside the keyed client`);
        beside.set(b.name, [...(beside.get(b.name) ?? []), l.r]);
      }
      process.stdout.write(
        `round ${round} keyed client ${name(b).padEnd(36)} ${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99Ms.toFixed(2)} ms\n`,
      );
    }
  }
  return { client, beside };
}

const HEAD = '## Refusals and searches beside a paying client (issue 37 item 4, our server alone)';

/** The section as lines of the report: its tables and each target's pass or miss. */
export async function refusalsSection(opts: RefusalBenchOptions): Promise<string[]> {
  if (!hasWrk()) return [HEAD, '', 'Skipped: wrk is not installed (apt-get install wrk).'];
  const s = await setUp(opts);
  try {
    const t1 = await throughput(s, opts);
    const flood = (n: string) => s.floods.find((f) => f.name === n)!;
    const besides: (Beside | null)[] = [
      null,
      ...['unknown keys, one address', 'unknown keys, many addresses'].map((n) => ({
        ...flood(n),
        name: `beside a flood (${n})`,
        path: s.lookup,
      })),
      {
        name: 'beside hostile q= (another key)',
        ...s.hostile,
        path: '/v1/registry/assets?q=t',
        expect: 200 as const,
      },
    ];
    const t2 = await latency(s, opts, besides);
    return report(s, opts, t1, t2, besides);
  } finally {
    await s.ours.stop();
  }
}

function report(
  s: Setup,
  opts: RefusalBenchOptions,
  t1: Awaited<ReturnType<typeof throughput>>,
  t2: Awaited<ReturnType<typeof latency>>,
  besides: (Beside | null)[],
): string[] {
  const m = (rs: LoadResult[], f: (r: LoadResult) => number) => median(rs.map(f));
  const hits = t1.results.get(s.floods[0]!.name)!;
  const vsHits = (rs: LoadResult[]) => median(rs.map((r, i) => r.rps / hits[i]!.rps));
  const alone = t2.client.get('alone')!;
  const vsAlone = (rs: LoadResult[]) => median(rs.map((r, i) => r.p99Ms / alone[i]!.p99Ms));
  const lines = [
    HEAD,
    '',
    `One instance (TRUST_PROXY=loopback, default REFUSAL_LIMIT and FAILED_AUTH_LIMIT, an institutional key with its quota raised); wrk, ${opts.connections} connections per load, ${opts.seconds} s per run, median of ${opts.rounds} alternating rounds; ratios are medians of the per-round ratios. Unknown keys are well formed (valid checksum), ${UNKNOWN_KEYS} of them in rotation; many addresses: a random X-Forwarded-For in 10.0.0.0/8 per request. Load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}.`,
    '',
    '### Throughput: refusal floods against cached hits (T1)',
    '',
    '| load | req/s | p50 ms | p99 ms | CPU µs/req | vs cached hits | answers |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const f of s.floods) {
    const rs = t1.results.get(f.name)!;
    const answered = t1.answered.get(f.name)!;
    lines.push(
      `| ${f.name} | ${fmt(m(rs, (r) => r.rps))} | ${fmt(
        m(rs, (r) => r.p50Ms),
        2,
      )} | ${fmt(
        m(rs, (r) => r.p99Ms),
        2,
      )} | ${fmt(m(rs, (r) => r.cpuMsPerRequest) * 1000)} | ${fmt(vsHits(rs), 2)} | ${share(new Map(), answered)} |`,
    );
  }
  lines.push(
    '',
    `### A keyed client's latency beside floods and hostile searches (T2, T3)`,
    '',
    `The keyed client: the cached hit with ${CLIENT_CONNECTIONS} connections (wrk timeout ${CLIENT_TIMEOUT_SECONDS} s, so slow answers are counted); the load beside it runs ${opts.connections} connections from half a second before to half a second after. Hostile q=: ${HOSTILE_QUERIES.length} searches in rotation, unpaged, each made a distinct target by trailing word breaks up to the 100-character bound (${HOSTILE_SEARCHES.map((h) => h.what).join(', ')}).`,
    '',
    '| keyed client | req/s | p50 ms | p99 ms | p99 vs alone | the load beside it: req/s, p99 ms |',
    '|---|---:|---:|---:|---:|---|',
  );
  for (const b of besides) {
    const rs = t2.client.get(b?.name ?? 'alone')!;
    const l = b && t2.beside.get(b.name);
    lines.push(
      `| ${b?.name ?? 'alone'} | ${fmt(m(rs, (r) => r.rps))} | ${fmt(
        m(rs, (r) => r.p50Ms),
        2,
      )} | ${fmt(
        m(rs, (r) => r.p99Ms),
        2,
      )} | ${b ? fmt(vsAlone(rs), 2) : '1.00'} | ${
        l
          ? `${fmt(m(l, (r) => r.rps))}, ${fmt(
              m(l, (r) => r.p99Ms),
              2,
            )}`
          : '—'
      } |`,
    );
  }
  const checks: [string, number, number, '≥' | '≤'][] = [
    ...s.floods
      .slice(1)
      .map((f): [string, number, number, '≥'] => [
        `${f.name}: ≥ 0.9 of cached hits in req/s (T1)`,
        vsHits(t1.results.get(f.name)!),
        0.9,
        '≥',
      ]),
    ...besides
      .filter((b) => b !== null)
      .map((b): [string, number, number, '≤'] => [
        `keyed p99 ${b.name} ≤ 2× alone (${b.name.includes('q=') ? 'T3' : 'T2'})`,
        vsAlone(t2.client.get(b.name)!),
        2,
        '≤',
      ]),
  ];
  lines.push('', '| target | measured | met |', '|---|---:|:---:|');
  for (const [name, value, bound, op] of checks) {
    const met = recordTarget({ issue: '#37 item 4', name, value, bound, op, unit: '×' });
    lines.push(`| ${name} | ${fmt(value, 2)} | ${met} |`);
  }
  const short = opts.rounds * opts.seconds < 10;
  if (short)
    lines.push(
      '',
      `${opts.rounds} × ${opts.seconds} s: too short a run to be more than a smoke test.`,
    );
  return lines;
}

// `node bench/refusals.ts`: this section alone (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS).
if (import.meta.main) {
  const lines = await refusalsSection({
    seconds: Number(process.env['BENCH_SECONDS'] ?? 2),
    rounds: Number(process.env['BENCH_ROUNDS'] ?? 5),
    connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
    client: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
  });
  console.log(`\n${lines.join('\n')}`);
}
