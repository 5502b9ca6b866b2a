// What every benchmark shares: starting a server process (pinned) and learning its port, a
// process's CPU time, the median, and a keyed setup of our server.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { pinned } from './pin.ts';

export interface Running {
  name: string;
  url: string;
  child: ChildProcess | null;
  pid: number;
  stop(): Promise<void>;
}

/** SIGTERM, then SIGKILL after 30 s: a benchmark must end even if a server does not. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((r) => {
    if (child.exitCode !== null) return r();
    child.once('exit', () => r());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });
}

/**
 * Starts a Node process and learns its port: our server reports it over IPC, the baselines print
 * it. With `logFile`, stdout goes straight to that file (as a log shipper would read it): piping
 * it through this process would stall the server while this process waits on the load generator.
 */
export async function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  logFile?: string,
): Promise<Running> {
  const out = logFile ? openSync(logFile, 'w') : 'pipe';
  const [command, argv] = pinned('server', process.execPath, args);
  const child = spawn(command, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', out, 'ignore', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${buffer}`)), 30_000);
    child.on('message', (m: { port?: number }) => {
      if (m.port) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      const m = /"port":(\d+)/.exec(buffer);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${buffer}`)));
  });
  child.stdout?.resume();
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}

/** User + system CPU seconds of a process so far (NaN once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks of 1/100 s
  } catch {
    return NaN;
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A real institutional key in `dataDir`'s service database, so the key check is the paying one. */
export function benchKey(dataDir: string): string {
  return benchKeyRecord(dataDir).key;
}

/** The bench's key with its id (what a charge names). */
export function benchKeyRecord(dataDir: string): { id: string; key: string } {
  const out = execFileSync(
    process.execPath,
    ['scripts/keys.ts', 'create', '--tier', 'institutional', '--owner', 'bench', '--json'],
    { env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'ignore'] },
  ).toString();
  return JSON.parse(out) as { id: string; key: string };
}

/** Our server's environment in a benchmark: access log at info, requests counted, never refused. */
export function ourServerEnv(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_INSTITUTIONAL: '1000000000/60',
  };
}
