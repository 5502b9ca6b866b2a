// Starts the built server (src/server/main.ts) as a real process on an ephemeral port.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestServer {
  url: string;
  /** The environment the server runs with (DATA_DIR, DATABASE_URL, …), for tools that share its database. */
  env: Record<string, string>;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * How long a server may take to say it listens. About a second on a quiet machine; at a load
 * average of 20 on 2 cores one start took over 20 s (2026-12-07), so the budget is generous: a
 * server that never starts still fails, with its output.
 */
const START_TIMEOUT_MS = 90_000;

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  if (!existsSync(path.resolve('dist/server/entry.mjs'))) {
    throw new Error(
      'dist/ is missing: run `npm run build` before the integration tests (npm test does).',
    );
  }
  let out = '';
  const serverEnv: Record<string, string> = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-test-')),
    ...env,
  };
  const child = fork(path.resolve('src/server/main.ts'), [], {
    // Each server gets its own database unless the test shares one on purpose; limits are raised
    // so that tests about something else are not refused.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_DEMO: '100000/60',
      FAILED_AUTH_LIMIT: '100000/60',
      REFUSAL_LIMIT: '100000/60',
      ...serverEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${out}`)),
      START_TIMEOUT_MS,
    );
    child.on('message', (m: { type?: string; port?: number }) => {
      if (m.type === 'listening' && m.port) {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    env: serverEnv,
    port,
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Names and values as sent, in order. */
  rawHeaders: string[];
  body: Buffer;
}

/** Headers every test request carries unless it says otherwise: the public demo key. */
export const DEMO = { 'x-api-key': 'DEMO_KEY' };

/** A request with node:http, so compressed bodies arrive as sent (fetch would decode them). */
export async function raw(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    noKey?: boolean;
    fresh?: boolean;
  } = {},
): Promise<RawResponse> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    // Keep the path exactly as written: URL parsing would resolve "%2e%2e" and "//".
    const { hostname, port, origin } = new URL(url);
    const path = url.slice(origin.length) || '/';
    const options = {
      hostname,
      port,
      path,
      method: init.method ?? 'GET',
      headers: {
        ...(init.noKey ? {} : DEMO),
        ...(init.fresh ? { connection: 'close' } : {}),
        ...init.headers,
      },
      // fresh: a connection of its own, so an error can only mean the connection was refused or cut.
      ...(init.fresh ? { agent: false as const } : {}),
    };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      // A response that began and then failed was cut: mark it so tests can tell it from a refused connection.
      res.on('error', (err) => reject(Object.assign(err, { responseStarted: true })));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs the operators' keys tool against the same database as a server. */
export async function keysTool(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.resolve('scripts/keys.ts'), ...args],
      { env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

interface CreatedKey {
  id: string;
  key: string;
  display_prefix?: string;
}

/** A new key of `tier` for `owner` in the service database of `env` (`npm run keys -- create`). */
export async function createKey(
  env: Record<string, string>,
  tier: string,
  owner: string,
): Promise<CreatedKey> {
  const out = await keysTool(env, 'create', '--tier', tier, '--owner', owner, '--json');
  if (out.code !== 0) throw new Error(`keys create failed: ${out.stderr}`);
  return JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as CreatedKey;
}
