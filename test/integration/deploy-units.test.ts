// deploy/: the systemd units (systemd-analyze verify when the machine has it, and the values an
// operator relies on), the environment example (valid for the server's own configuration check),
// the units' command line (it starts the service, which stops on SIGTERM within the stop
// timeout) and the nginx edge template (`nginx -t` on the rendered file).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readConfig } from '../../src/server/config.ts';
import {
  EDGE_TEMPLATE,
  ENVSUBST_VARS,
  NGINX,
  mainConfig,
  nginxTest,
  renderEdge,
} from '../helpers/nginx.ts';

const ROOT = path.resolve('.');
const UNITS = ['tai-api.service', 'tai-api@.service'];
const unitText = (name: string) => readFileSync(path.join('deploy/systemd', name), 'utf8');
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) =>
  existsSync(p),
);

/** `Key=value` lines of a unit, by section; repeated keys keep every value. */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let current: Record<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = sections[section[1]!] = {};
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`not a unit line: ${line}`);
    (current[kv[1]!] ??= []).push(kv[2]!);
  }
  return sections;
}

function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const kv = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!kv) throw new Error(`not an environment line: ${line}`);
    env[kv[1]!] = kv[2]!;
  }
  return env;
}

const ENV_EXAMPLE = parseEnvFile(readFileSync('deploy/tai.env.example', 'utf8'));

describe('deploy/systemd', () => {
  it('units are hardened, restart on failure, and stop within the shutdown grace', () => {
    const grace = Number(ENV_EXAMPLE['SHUTDOWN_GRACE_MS'] ?? 10_000);
    for (const name of UNITS) {
      const s = parseUnit(unitText(name))['Service']!;
      const one = (key: string) => {
        expect(s[key], `${name} ${key}`).toHaveLength(1);
        return s[key]![0]!;
      };
      expect(one('User')).toBe('tai');
      expect(one('Restart')).toBe('on-failure');
      expect(one('RestartPreventExitStatus')).toBe('78');
      // main.ts exits at the latest 5 s after SHUTDOWN_GRACE_MS; systemd must not kill before.
      expect(Number(one('TimeoutStopSec'))).toBeGreaterThanOrEqual(grace / 1000 + 5);
      expect(one('KillSignal')).toBe('SIGTERM');
      expect(one('ProtectSystem')).toBe('strict');
      expect(one('ReadOnlyPaths')).toBe('/opt/tai');
      for (const flag of ['NoNewPrivileges', 'PrivateTmp', 'ProtectHome', 'PrivateDevices'])
        expect(one(flag), flag).toBe('yes');
      expect(one('CapabilityBoundingSet')).toBe('');
      // V8's JIT needs writable executable memory.
      expect(s['MemoryDenyWriteExecute']).toBeUndefined();
      expect(one('EnvironmentFile')).toBe('/etc/tai/tai.env');
    }
    const single = parseUnit(unitText('tai-api.service'))['Service']!;
    const template = parseUnit(unitText('tai-api@.service'))['Service']!;
    expect(template['Environment']).toEqual(['PORT=%i DATA_DIR=/var/lib/tai/%i']);
    expect(template['StateDirectory']).toEqual(['tai/%i']);
    // The template is the single unit with the instance filled in: nothing else drifts.
    const rest = (s: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(s).filter(([k]) => !['Environment', 'StateDirectory'].includes(k)),
      );
    expect(rest(template)).toEqual(rest(single));
    // PORT and DATA_DIR are the unit's: the environment file would override them for every instance.
    expect(ENV_EXAMPLE['PORT']).toBeUndefined();
    expect(ENV_EXAMPLE['DATA_DIR']).toBeUndefined();
  });

  it.skipIf(!SYSTEMD_ANALYZE)('pass systemd-analyze verify', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-units-'));
    const envFile = path.join(dir, 'tai.env');
    writeFileSync(envFile, readFileSync('deploy/tai.env.example'));
    for (const name of UNITS)
      writeFileSync(
        path.join(dir, name),
        // Paths of this checkout instead of the installed ones, so that the command exists.
        unitText(name)
          .replaceAll('/opt/tai/current', ROOT)
          .replaceAll('/etc/tai/tai.env', envFile)
          .replace('ReadOnlyPaths=/opt/tai', `ReadOnlyPaths=${ROOT}`),
      );
    writeFileSync(
      path.join(dir, 'tai-api@4321.service'),
      readFileSync(path.join(dir, 'tai-api@.service')),
    );
    for (const unit of ['tai-api.service', 'tai-api@4321.service']) {
      const out = await new Promise<{ code: number; output: string }>((resolve) =>
        execFile(SYSTEMD_ANALYZE!, ['verify', path.join(dir, unit)], (err, stdout, stderr) =>
          resolve({ code: err ? 1 : 0, output: stdout + stderr }),
        ),
      );
      // systemd-analyze reports unknown keys and bad values on stderr and may still exit 0.
      const ours = out.output
        .split('\n')
        .filter((l) => l.includes(dir) || /tai-api/.test(l))
        .join('\n');
      expect(ours, unit).toBe('');
      expect(out.code, out.output).toBe(0);
    }
  });

  it('the environment example is a valid configuration', () => {
    const config = readConfig(ENV_EXAMPLE);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379/0');
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(config.TRUST_PROXY).toEqual(['loopback']);
    expect(config.MAX_CONNECTIONS_PER_ADDRESS).toBe(0);
    expect(config.EDGE_AUTH_TOKEN).toHaveLength(64);
    expect(config.REDIS_FALLBACK_SHARE).toBe(0.5);
    // Defaults without the new variables: in-memory quotas, no edge endpoint.
    const bare = readConfig({});
    expect([bare.REDIS_URL, bare.EDGE_AUTH_TOKEN, bare.REDIS_FALLBACK_SHARE]).toEqual([
      undefined,
      undefined,
      0.5,
    ]);
    for (const [name, value, message] of [
      ['REDIS_URL', 'localhost:6379', 'must be a redis:// or rediss:// URL'],
      ['REDIS_FALLBACK_SHARE', '0', 'must be a number above 0 and at most 1'],
      ['REDIS_FALLBACK_SHARE', '1.5', 'must be a number above 0 and at most 1'],
      ['REDIS_TIMEOUT_MS', '5', 'must be a whole number from 10 to 10000'],
      ['REDIS_KEY_PREFIX', 'a b', 'must be 1 to 64 of A-Z a-z 0-9 : _ . -'],
      ['EDGE_AUTH_TOKEN', 'short', 'must be 32 to 256 of A-Z a-z 0-9 _ -'],
    ])
      expect(() => readConfig({ [name!]: value })).toThrow(
        `${name}=${JSON.stringify(value)}: ${message}`,
      );
  });

  it(
    'the units’ command starts the service, which stops on SIGTERM within TimeoutStopSec',
    { timeout: 90_000 },
    async () => {
      const s = parseUnit(unitText('tai-api@.service'))['Service']!;
      const [command, ...args] = s['ExecStart']![0]!.replaceAll('/opt/tai/current', ROOT).split(
        ' ',
      );
      const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-unit-'));
      // The example's database and Redis are not this machine's: SQLite, in-memory quotas.
      const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = ENV_EXAMPLE;
      const child = spawn(command!, args, {
        cwd: s['WorkingDirectory']![0]!.replaceAll('/opt/tai/current', ROOT),
        env: { ...process.env, ...env, PORT: '0', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      // Never left running when an expectation fails.
      onTestFinished(() => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      for (let i = 0; i < 600 && !/"msg":"listening"/.test(out) && child.exitCode === null; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/"msg":"listening"/);
      const stopAt = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(Number(s['TimeoutStopSec']![0]) * 1000);
    },
  );
});

describe.skipIf(!NGINX)('deploy/nginx', () => {
  it('renders with the four documented variables and passes nginx -t', async () => {
    const template = readFileSync(EDGE_TEMPLATE, 'utf8');
    const used = new Set([...template.matchAll(/\$\{(TAI_[A-Z_]+)\}/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual([
      'TAI_DIST_CLIENT',
      'TAI_EDGE_TOKEN',
      'TAI_LISTEN',
      'TAI_UPSTREAMS',
    ]);
    const prefix = mkdtempSync(path.join(tmpdir(), 'tai-nginx-t-'));
    const client = path.join(prefix, 'client');
    mkdirSync(client);
    const edge = path.join(prefix, 'tai-edge.conf');
    writeFileSync(
      edge,
      renderEdge({
        TAI_LISTEN: '127.0.0.1:8080',
        TAI_DIST_CLIENT: client,
        TAI_UPSTREAMS: 'server 127.0.0.1:4321; server 127.0.0.1:4322;',
        TAI_EDGE_TOKEN: ENV_EXAMPLE['EDGE_AUTH_TOKEN']!,
      }),
    );
    expect(readFileSync(edge, 'utf8')).not.toMatch(/\$\{TAI_/);
    // nginx's own variables survive the rendering.
    expect(readFileSync(edge, 'utf8')).toContain('$tai_send_file $tai_otherwise');
    // The README and the template's header render with the same variable list as this test.
    for (const doc of [readFileSync('README.md', 'utf8'), template])
      expect(doc).toContain(`envsubst '${ENVSUBST_VARS}'`);
    const conf = path.join(prefix, 'nginx.conf');
    writeFileSync(conf, mainConfig(prefix, edge));
    const result = await nginxTest(prefix, conf);
    expect(result.output).toMatch(/syntax is ok/);
    expect(result.output).toMatch(/test is successful/);
    expect(result.code).toBe(0);
  });
});
