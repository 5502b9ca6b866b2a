// The load generator, in a separate process: wrk when installed (as the anchors were measured),
// else autocannon from npm.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pinned } from './pin.ts';

const execFileAsync = promisify(execFile);

export interface LoadResult {
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  statuses: string;
  cpuMsPerRequest: number;
  statusMismatch(expected: number): boolean;
}

export interface LoadGenerator {
  name: string;
  run(
    url: string,
    headers: Record<string, string>,
    seconds: number,
    connections: number,
  ): Promise<LoadResult>;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

/** wrk's report as a LoadResult. */
function readWrk(out: string): LoadResult {
  const lat = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? toMs(m[1]!, m[2]!) : NaN;
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  // Requests past wrk's timeout are left out of its latencies: say so.
  const socket = /Socket errors: ([^\n]+)/.exec(out)?.[1];
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    requests,
    p50Ms: lat('50'),
    p99Ms: lat('99'),
    statuses: `${non2xx ? `${non2xx} non-2xx/3xx of ${requests}` : `all 2xx/3xx`}${socket ? `; socket errors: ${socket}` : ''}`,
    cpuMsPerRequest: NaN,
    // wrk only tells 2xx/3xx from the rest: a 404 workload must be all "non-2xx", the others none.
    statusMismatch: (expected) => (expected >= 400 ? non2xx !== requests : non2xx !== 0),
  };
}

export interface WrkOptions {
  /** A Lua script setting each request (bench/refusals.ts: rotating targets and addresses). */
  script?: string | undefined;
  /** wrk's per-request timeout (its default, 2 s, drops slower requests from the latencies). */
  timeoutSeconds?: number;
}

/**
 * wrk without blocking this process, so that another load can run beside it (bench/refusals.ts
 * measures a client while a flood runs).
 */
export async function runWrk(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  options: WrkOptions = {},
): Promise<LoadResult> {
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...(options.timeoutSeconds ? ['--timeout', `${options.timeoutSeconds}s`] : []),
    ...(options.script ? ['-s', options.script] : []),
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ];
  const [command, argv] = pinned('load', 'wrk', args);
  const { stdout } = await execFileAsync(command, argv, { maxBuffer: 1 << 20 });
  return readWrk(stdout);
}

const wrk: LoadGenerator = {
  name: 'wrk (1 thread)',
  run: (url, headers, seconds, connections) => runWrk(url, headers, seconds, connections),
};

const autocannon: LoadGenerator = {
  name: 'autocannon',
  async run(url, headers, seconds, connections) {
    const bin = path.resolve('node_modules/autocannon/autocannon.js');
    const args = [
      bin,
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-j',
      ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      url,
    ];
    const [command, argv] = pinned('load', process.execPath, args);
    const r = JSON.parse(execFileSync(command, argv, { maxBuffer: 16 << 20 }).toString()) as {
      requests: { average: number; total: number };
      latency: { p50: number; p99: number };
      statusCodeStats?: Record<string, { count: number }>;
    };
    const codes = r.statusCodeStats ?? {};
    return {
      rps: r.requests.average,
      requests: r.requests.total,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      statuses: Object.entries(codes)
        .map(([c, v]) => `${c}:${v.count}`)
        .join(' '),
      cpuMsPerRequest: NaN,
      statusMismatch: (expected) => Object.keys(codes).some((c) => Number(c) !== expected),
    };
  },
};

export const hasWrk = (): boolean => ['/usr/bin/wrk', '/usr/local/bin/wrk'].some(existsSync);

/**
 * wrk when installed (`apt-get install wrk`), else autocannon. autocannon is a Node program: on
 * one core it tops out near the fastest servers' rate, so it compresses ratios towards 1
 * (bench/results/2026-11-27-reconcile.md); reports say which generator ran.
 */
export function loadGenerator(): LoadGenerator {
  return hasWrk() && process.env['BENCH_LOAD'] !== 'autocannon' ? wrk : autocannon;
}

/** Every generator this machine has, wrk first: to compare what each reads. */
export const loadGenerators = (): LoadGenerator[] => (hasWrk() ? [wrk, autocannon] : [autocannon]);
