// Runs the edge (deploy/nginx/tai-edge.conf.template) with Debian's nginx for real: the template
// rendered as envsubst would, inside a generated main configuration in a temporary prefix (pid,
// logs and temporary files there, nothing under /etc or /var), on a port of the test's.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { edgeDatasetPaths } from '../../scripts/edge-paths.ts';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
export const EDGE_TEMPLATE = path.resolve('deploy/nginx/tai-edge.conf.template');

if (process.env['CI'] && !NGINX)
  throw new Error(
    'nginx must be installed in CI (.ci/run installs nginx-light): the edge is tested for real.',
  );

export interface EdgeVars {
  TAI_LISTEN: string;
  TAI_DIST_CLIENT: string;
  TAI_UPSTREAMS: string;
  TAI_EDGE_TOKEN: string;
  TAI_ACCESS_LOG: string;
  TAI_AUTH_CACHE: string;
  TAI_CHARGE_DIR: string;
  TAI_DATASET_PATHS: string;
}

/** The argument of envsubst in docs/production.md "Running in production": these variables only. */
export const ENVSUBST_VARS =
  '${TAI_LISTEN} ${TAI_DIST_CLIENT} ${TAI_UPSTREAMS} ${TAI_EDGE_TOKEN} ${TAI_ACCESS_LOG} ${TAI_AUTH_CACHE} ${TAI_CHARGE_DIR} ${TAI_DATASET_PATHS}';
/**
 * TAI_UPSTREAMS as docs/production.md "Running in production" writes it: each instance a primary with
 * passive checks and a backup that is never shunned (the template's "No stall").
 */
export const upstreamsFor = (ports: number[]) =>
  [
    ...ports.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`),
    ...ports.map((p) => `server 127.0.0.1:${p} backup max_fails=0;`),
  ].join(' ');
const ENVSUBST = ['/usr/bin/envsubst', '/bin/envsubst'].find((p) => existsSync(p));

/**
 * The template rendered as the README does (`envsubst '${TAI_LISTEN} …'`: nginx's own `$vars`
 * untouched), with envsubst itself when the machine has it (gettext-base).
 */
export function renderEdge(
  given: Omit<EdgeVars, 'TAI_DATASET_PATHS'> & Partial<Pick<EdgeVars, 'TAI_DATASET_PATHS'>>,
  template = readFileSync(EDGE_TEMPLATE, 'utf8'),
): string {
  // The dataset paths as the README's `npm run -s edge:paths` prints them.
  const vars: EdgeVars = { TAI_DATASET_PATHS: edgeDatasetPaths(), ...given };
  if (ENVSUBST)
    return execFileSync(ENVSUBST, [ENVSUBST_VARS], {
      input: template,
      env: { PATH: process.env['PATH'] ?? '', ...vars },
      encoding: 'utf8',
    });
  return template.replace(/\$\{(TAI_[A-Z_]+)\}/g, (m, name: string) =>
    name in vars ? vars[name as keyof EdgeVars] : m,
  );
}

/** A main configuration around the edge, everything under `prefix`. */
export function mainConfig(prefix: string, include: string): string {
  // As root, nginx's workers would switch to nobody, who cannot read a 0700 temporary prefix.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  return `${user}daemon off;
master_process on;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
    access_log ${prefix}/access.log;
    client_body_temp_path ${prefix}/client_body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    include ${include};
}
`;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Optional = 'TAI_ACCESS_LOG' | 'TAI_AUTH_CACHE' | 'TAI_CHARGE_DIR' | 'TAI_DATASET_PATHS';

export function writeEdge(vars: Omit<EdgeVars, Optional> & Partial<Pick<EdgeVars, Optional>>): {
  prefix: string;
  conf: string;
} {
  const prefix = mkdtempSync(path.join(tmpdir(), 'tai-nginx-'));
  const edge = path.join(prefix, 'tai-edge.conf');
  mkdirSync(path.join(prefix, 'charges'));
  // The edge's own access log (redacted format) and its authorization cache in the prefix.
  writeFileSync(
    edge,
    renderEdge({
      TAI_ACCESS_LOG: path.join(prefix, 'tai-edge.access.log'),
      TAI_AUTH_CACHE: path.join(prefix, 'auth-cache'),
      // The charge logs of a test that reads none stay in the prefix.
      TAI_CHARGE_DIR: path.join(prefix, 'charges'),
      ...vars,
    }),
  );
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(conf, mainConfig(prefix, edge));
  return { prefix, conf };
}

/** `nginx -t` on a configuration: exit code and output. */
export function nginxTest(prefix: string, conf: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(NGINX!, ['-t', '-p', prefix, '-c', conf], (err, stdout, stderr) =>
      resolve({
        code: err ? Number((err as { code?: number }).code ?? 1) : 0,
        output: stdout + stderr,
      }),
    ),
  );
}

export interface RunningEdge {
  url: string;
  prefix: string;
  child: ChildProcess;
  errors(): string;
  stop(): Promise<void>;
}

export async function startEdge(
  vars: Omit<EdgeVars, 'TAI_LISTEN' | Optional> & Partial<Pick<EdgeVars, 'TAI_CHARGE_DIR'>>,
): Promise<RunningEdge> {
  const port = await freePort();
  const { prefix, conf } = writeEdge({ ...vars, TAI_LISTEN: `127.0.0.1:${port}` });
  let out = '';
  const child = spawn(NGINX!, ['-p', prefix, '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || i > 200) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const errors = () => {
    const log = path.join(prefix, 'error.log');
    return out + (existsSync(log) ? readFileSync(log, 'utf8') : '');
  };
  return {
    url: `http://127.0.0.1:${port}`,
    prefix,
    child,
    errors,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

/** Every file under the given directories (an edge's prefix, its charge logs), by path. */
export function filesUnder(...dirs: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}
