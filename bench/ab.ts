// npm run bench:ab — one workload, variants of our server against the bare Node server replaying
// the first variant's bytes, in alternating pinned rounds: the quick way to tell whether a change
// to the hot path helps (a full `npm run bench` takes 35 minutes; this, a minute or two).
//
//   npm run bench:ab -- [--path /v1/registry/assets] [--header 'Accept-Encoding: gzip']
//     [--rounds 15] [--seconds 2] [--warmup 5] [--variant name] [--variant name:ENV=value,...]
//     [--variant name:@/path/to/another/checkout]
//
// A variant is our server (src/server/main.ts) with extra environment, or another checkout's
// src/server/main.ts (a `git worktree` of the commit to compare, with node_modules linked), run
// from here, so every variant serves this checkout's build. Without --variant: "ours" alone.
// Prints each round and, per variant, the median req/s, CPU µs per request and the median of the
// per-round ratios to the replay and to the first variant.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { captureResponses } from './capture.ts';
import { loadGenerator } from './load.ts';
import { placement } from './pin.ts';
import {
  benchKey,
  cpuSeconds,
  median,
  ourServerEnv,
  startProcess,
  type Running,
} from './processes.ts';

const { values } = parseArgs({
  options: {
    path: { type: 'string', default: '/v1/registry/assets' },
    header: { type: 'string', multiple: true, default: [] },
    rounds: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    // Unmeasured load per server first: a fresh server of ours needs seconds of load to compile
    // its hot path (bench/results/2026-11-23-origin-speed.md).
    warmup: { type: 'string', default: '5' },
    variant: { type: 'string', multiple: true, default: [] },
  },
});

interface Variant {
  name: string;
  main: string;
  env: Record<string, string>;
}

/** `name`, `name:ENV=value,ENV=value` or `name:@checkout`. */
function parseVariant(spec: string): Variant {
  const at = spec.indexOf(':');
  const name = at < 0 ? spec : spec.slice(0, at);
  const rest = at < 0 ? '' : spec.slice(at + 1);
  if (!/^[\w-]+$/.test(name)) throw new Error(`--variant ${spec}: the name must be a word`);
  if (rest.startsWith('@'))
    return { name, main: path.resolve(rest.slice(1), 'src/server/main.ts'), env: {} };
  const env: Record<string, string> = {};
  for (const pair of rest ? rest.split(',') : []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`--variant ${spec}: expected ENV=value pairs, got "${pair}"`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { name, main: 'src/server/main.ts', env };
}

const variants = (values.variant.length ? values.variant : ['ours']).map(parseVariant);
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const workPath = values.path;

const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-ab-'));
const logDir = mkdtempSync(path.join(tmpdir(), 'tai-bench-ab-logs-'));
const headers: Record<string, string> = { 'X-API-Key': benchKey(dataDir) };
for (const h of values.header) {
  const colon = h.indexOf(':');
  if (colon < 1) throw new Error(`--header ${h}: expected "Name: value"`);
  headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
}

const servers: Running[] = [];
try {
  for (const v of variants)
    servers.push(
      await startProcess(
        v.name,
        [v.main],
        { ...ourServerEnv(dataDir), ...v.env },
        path.join(logDir, `${v.name}.log`),
      ),
    );
  const replayFile = path.join(logDir, 'replay.json');
  await captureResponses(servers[0]!.url, [{ url: workPath, headers }], replayFile);
  servers.push(await startProcess('replay', ['bench/replay-server.ts', replayFile, '0'], {}));

  const gen = loadGenerator();
  console.log(
    `${workPath}: ${rounds} rounds × ${seconds} s, ${connections} connections, ${gen.name}; ${placement()}`,
  );
  for (const s of servers)
    await gen.run(`${s.url}${workPath}`, headers, Number(values.warmup), connections);
  const rps = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 0 ? [...servers].reverse() : servers;
    const line: string[] = [];
    for (const s of order) {
      const before = cpuSeconds(s.pid);
      const r = await gen.run(`${s.url}${workPath}`, headers, seconds, connections);
      if (r.statusMismatch(200)) throw new Error(`${s.name}: expected 200, got ${r.statuses}`);
      rps.set(s.name, [...(rps.get(s.name) ?? []), r.rps]);
      cpu.set(s.name, [
        ...(cpu.get(s.name) ?? []),
        ((cpuSeconds(s.pid) - before) * 1e6) / r.requests,
      ]);
      line.push(`${s.name} ${Math.round(r.rps)}`);
    }
    console.log(`round ${round}: ${line.join('  ')}`);
  }
  const ratio = (a: string, b: string) =>
    median(rps.get(a)!.map((x, i) => x / rps.get(b)![i]!)).toFixed(3);
  console.log(
    '\n| server | req/s | CPU µs/req | vs replay | vs first |\n|---|---:|---:|---:|---:|',
  );
  for (const s of servers)
    console.log(
      `| ${s.name} | ${Math.round(median(rps.get(s.name)!))} | ${median(cpu.get(s.name)!).toFixed(1)} | ${ratio(s.name, 'replay')} | ${ratio(s.name, servers[0]!.name)} |`,
    );
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
