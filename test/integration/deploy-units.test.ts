// deploy/: the systemd units (systemd-analyze verify when the machine has it, and the values an
// operator relies on), the environment example (valid for the server's own configuration check),
// the units' command line (it starts the service, which stops on SIGTERM within the stop
// timeout) and the nginx edge template (`nginx -t` on the rendered file).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readConfig } from '../../src/config.ts';
import {
  EDGE_TEMPLATE,
  ENVSUBST_VARS,
  NGINX,
  mainConfig,
  nginxTest,
  renderEdge,
  upstreamsFor,
} from '../helpers/nginx.ts';
import { describeNeeding, itNeeding } from '../helpers/skip-note.ts';

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

  itNeeding('systemd')('pass systemd-analyze verify', async () => {
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
    expect([config.REDIS_LEASE_MAX, config.REDIS_LEASE_IDLE_MS]).toEqual([1000, 1000]);
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
      ['REDIS_LEASE_MAX', '0', 'must be a whole number from 1 to 10000'],
      ['REDIS_LEASE_IDLE_MS', '50', 'must be a whole number from 100 to 600000'],
      ['REDIS_KEY_PREFIX', 'a b', 'must be 1 to 64 of A-Z a-z 0-9 : _ . -'],
      ['EDGE_AUTH_TOKEN', 'short', 'must be 32 to 256 of A-Z a-z 0-9 _ -'],
    ])
      expect(() => readConfig({ [name!]: value })).toThrow(
        `${name}=${JSON.stringify(value)}: ${message}`,
      );
  });

  it(
    'the units’ command starts the service, which stops on SIGTERM within TimeoutStopSec',
    { timeout: 180_000 },
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

describeNeeding('nginx')('deploy/nginx', () => {
  it('renders with the eight documented variables and passes nginx -t', async () => {
    const template = readFileSync(EDGE_TEMPLATE, 'utf8');
    const used = new Set([...template.matchAll(/\$\{(TAI_[A-Z_]+)\}/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual([
      'TAI_ACCESS_LOG',
      'TAI_AUTH_CACHE',
      'TAI_CHARGE_DIR',
      'TAI_DATASET_PATHS',
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
        TAI_UPSTREAMS: upstreamsFor([4321, 4322]),
        TAI_EDGE_TOKEN: ENV_EXAMPLE['EDGE_AUTH_TOKEN']!,
        TAI_ACCESS_LOG: path.join(prefix, 'tai-edge.access.log'),
        TAI_AUTH_CACHE: path.join(prefix, 'tai-edge-auth'),
        TAI_CHARGE_DIR: ENV_EXAMPLE['EDGE_CHARGE_DIR']!,
      }),
    );
    expect(readFileSync(edge, 'utf8')).not.toMatch(/\$\{TAI_/);
    // The dataset paths from the operations table (npm run -s edge:paths).
    expect(readFileSync(edge, 'utf8')).toContain(
      'location ~ ^/v1/(registry/assets|market/stablecoins|compliance/mica-status)$ {',
    );
    // nginx's own variables survive the rendering.
    expect(readFileSync(edge, 'utf8')).toContain('$tai_send_file $tai_otherwise');
    // The production page and the template's header render with the same variable list as this test.
    for (const doc of [readFileSync('docs/production.md', 'utf8'), template])
      expect(doc).toContain(`envsubst '${ENVSUBST_VARS}'`);
    const conf = path.join(prefix, 'nginx.conf');
    writeFileSync(conf, mainConfig(prefix, edge));
    const result = await nginxTest(prefix, conf);
    expect(result.output).toMatch(/syntax is ok/);
    expect(result.output).toMatch(/test is successful/);
    expect(result.code).toBe(0);
  });
});

// docs/production.md "Running in production": every command it lists is either run here as written (paths
// moved into a temporary directory, placeholders filled in) or needs root-owned system state (a
// package, the tai user, systemd) and names what exercises its effect instead.
const SECTION = (() => {
  const readme = readFileSync('docs/production.md', 'utf8');
  const start = readme.indexOf('\n## Running in production');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
})();

/** The commands of the section's sh blocks: continuations joined, comments dropped. */
const README_COMMANDS = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
  m[1]!
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/(^|\s+)#\s.*$/, '').trim())
    .filter(Boolean),
);

/** Commands this file runs (`run`), or what exercises the effect of one it cannot (`by`). */
const COVERAGE: { match: RegExp; run?: string; by?: string }[] = [
  {
    match: /^apt-get install -y nginx-light redis-server postgresql gettext-base curl$/,
    by: '.ci/run installs nginx-light and redis-server; the tests run nginx, Redis, PostgreSQL and envsubst',
  },
  {
    match: /^useradd --system --home \/opt\/tai --shell \/usr\/sbin\/nologin tai$/,
    by: 'the units run as User=tai (deploy/systemd above)',
  },
  {
    match: /^git clone <this repository> \/opt\/tai\/releases\/1 && cd \/opt\/tai\/releases\/1$/,
    by: 'CI runs in a clone',
  },
  {
    match: /^npm ci && npm run build && ln -sfn \/opt\/tai\/releases\/1 \/opt\/tai\/current$/,
    by: '.ci/run (npm ci) and npm test (npm run build); the units run /opt/tai/current (ExecStart above)',
  },
  {
    match: /^sudo -u postgres createuser tai --pwprompt && sudo -u postgres createdb -O tai tai$/,
    by: 'the database is created below with the test server’s superuser',
  },
  {
    match: /^install -d -m 0750 -g tai \/etc\/tai$/,
    by: 'the tai group: EnvironmentFile=/etc/tai/tai.env (units above)',
  },
  {
    match: /^install -m 0640 -g tai deploy\/tai\.env\.example \/etc\/tai\/tai\.env$/,
    by: 'the example is a valid configuration (above)',
  },
  { match: /^openssl rand -hex 32 > \/etc\/tai\/edge-token$/, run: 'token' },
  {
    match: /^install -d -m 2770 -o tai -g www-data \/var\/lib\/tai\/edge-charges$/,
    by: 'the edge tests share a charge directory between nginx and the instances (edge-auth-cache.test.ts); the units’ ReadWritePaths (above)',
  },
  { match: /^chmod 0600 \/etc\/tai\/edge-token$/, run: 'token' },
  {
    match: /^cp deploy\/systemd\/tai-api@\.service \/etc\/systemd\/system\/$/,
    by: 'systemd-analyze verify (above)',
  },
  {
    match: /^systemctl daemon-reload && systemctl enable --now tai-api@4321 tai-api@4322$/,
    by: 'the units’ command started and stopped (above)',
  },
  {
    match:
      /^TAI_LISTEN=80 .* envsubst '\$\{TAI_LISTEN\} .*' < deploy\/nginx\/tai-edge\.conf\.template > \/etc\/nginx\/conf\.d\/tai-edge\.conf$/,
    run: 'edge',
  },
  { match: /^nginx -t && systemctl reload nginx$/, run: 'edge' },
  {
    match:
      /^\(set -a; \. \/etc\/tai\/tai\.env; npm run -s keys -- create --tier institutional --owner "Bank A" --json\)$/,
    run: 'keys',
  },
  {
    match:
      /^systemctl restart tai-api@4321 && until curl -fs localhost:4321\/readyz; do sleep 1; done$/,
    run: 'ready',
  },
  {
    match:
      /^\(set -a; \. \/etc\/tai\/tai\.env; pg_dump -Fc -d "\$DATABASE_URL" -f "tai-\$\(date \+%F\)\.dump"\)$/,
    run: 'postgres',
  },
  {
    match:
      /^\(set -a; \. \/etc\/tai\/tai\.env; pg_restore --clean --if-exists -d "\$DATABASE_URL" tai-<date>\.dump\)$/,
    run: 'postgres',
  },
  { match: /^sqlite3 "\$DATA_DIR\/tai\.sqlite" "\.backup tai-copy\.sqlite"$/, run: 'sqlite' },
  {
    match: /^\(set -a; \. \/etc\/tai\/tai\.env; npm run -s keys -- usage --key <old id> --json\)$/,
    run: 'keys',
  },
  {
    match: /^\(set -a; \. \/etc\/tai\/tai\.env; npm run -s keys -- revoke <old id>\)$/,
    run: 'keys',
  },
];
const readmeCommand = (match: RegExp) => {
  const found = README_COMMANDS.filter((c) => match.test(c));
  expect(found, String(match)).toHaveLength(1);
  return found[0]!;
};

/** Whether a README command's program is here; CI must have it (.ci/run installs it). */
const ON_PATH = (bin: string) => {
  const found = ['/usr/bin', '/bin', '/usr/sbin', '/usr/local/bin'].some((d) =>
    existsSync(path.join(d, bin)),
  );
  if (!found && process.env['CI'])
    throw new Error(`${bin} must be installed in CI (.ci/run): README commands use it.`);
  return found;
};

/** A README command in a POSIX shell (as an operator's root shell would run it). */
function sh(
  command: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('docs/production.md "Running in production"', () => {
  it('lists only commands that this file runs or that name what exercises them', () => {
    expect(README_COMMANDS.length).toBeGreaterThan(15);
    for (const command of README_COMMANDS) {
      const entries = COVERAGE.filter((c) => c.match.test(command));
      expect([command, entries.length]).toEqual([command, 1]);
    }
    for (const c of COVERAGE) readmeCommand(c.match);
  });

  it('REDIS_FALLBACK_SHARE is 1/N for the N instances it starts', () => {
    const enable = readmeCommand(/^systemctl daemon-reload && systemctl enable/);
    const n = enable.match(/tai-api@\d+/g)!.length;
    expect(readConfig(ENV_EXAMPLE).REDIS_FALLBACK_SHARE).toBe(1 / n);
    expect(readFileSync('deploy/tai.env.example', 'utf8')).toMatch(/1\/N/);
    expect(SECTION).toMatch(/`REDIS_FALLBACK_SHARE` to 1\/N/);
  });

  it('the edge token and the rendered edge, as written', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-readme-edge-'));
    const moved = (c: string) =>
      c
        .replaceAll('/etc/tai/edge-token', path.join(dir, 'edge-token'))
        .replaceAll('/opt/tai/current/dist/client', path.resolve('dist/client'))
        .replaceAll('/etc/nginx/conf.d/tai-edge.conf', path.join(dir, 'tai-edge.conf'))
        .replaceAll('/var/log/nginx/tai-edge.access.log', path.join(dir, 'tai-edge.access.log'))
        .replaceAll('/var/cache/nginx/tai-edge-auth', path.join(dir, 'tai-edge-auth'))
        .replace('TAI_LISTEN=80', 'TAI_LISTEN=127.0.0.1:8080');
    for (const match of [/^openssl rand/, /^chmod 0600/]) {
      const r = await sh(moved(readmeCommand(match)), dir);
      expect(r.code, r.stderr).toBe(0);
    }
    const token = readFileSync(path.join(dir, 'edge-token'), 'utf8').trim();
    expect(readConfig({ EDGE_AUTH_TOKEN: token }).EDGE_AUTH_TOKEN).toBe(token);
    expect((await import('node:fs')).statSync(path.join(dir, 'edge-token')).mode & 0o777).toBe(
      0o600,
    );
    if (!ON_PATH('envsubst') || !NGINX) return;
    // In the release directory, as the README's operator is.
    const rendered = await sh(moved(readmeCommand(/^TAI_LISTEN=80 /)), ROOT);
    expect(rendered.code, rendered.stderr).toBe(0);
    const conf = readFileSync(path.join(dir, 'tai-edge.conf'), 'utf8');
    expect(conf).toContain(`proxy_set_header X-Tai-Edge-Token "${token}";`);
    expect(conf).toContain(
      'location ~ ^/v1/(registry/assets|market/stablecoins|compliance/mica-status)$ {',
    );
    // The charges go where the instances read them (tai.env.example's EDGE_CHARGE_DIR).
    expect(conf).toContain(
      `access_log ${ENV_EXAMPLE['EDGE_CHARGE_DIR']}/charges-$tai_charge_log.log`,
    );
    expect(conf).not.toMatch(/\$\{TAI_/);
    // `nginx -t` on it (inside a main configuration of the test's, as conf.d is included).
    expect(readmeCommand(/^nginx -t/)).toMatch(/^nginx -t && /);
    writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(dir, path.join(dir, 'tai-edge.conf')));
    const t = await nginxTest(dir, path.join(dir, 'nginx.conf'));
    expect(t.output).toMatch(/test is successful/);
  });

  it('waits for an instance with the rolling restart’s readiness loop', async () => {
    if (!ON_PATH('curl')) return;
    const { startServer } = await import('../helpers/server.ts');
    const server = await startServer();
    onTestFinished(async () => void (await server.stop()));
    const loop = readmeCommand(/^systemctl restart tai-api@4321 && until curl/)
      .replace(/^systemctl restart tai-api@4321 && /, '')
      .replaceAll('4321', String(server.port));
    const r = await sh(`timeout 20 sh -c '${loop}'`, tmpdir());
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: expect.any(String) });
  });

  it(
    'keys, the dump and its restore on PostgreSQL, with the service’s own environment file',
    { timeout: 120_000 },
    async () => {
      const { TEST_DATABASE_URL } = await import('../helpers/databases.ts');
      if (!TEST_DATABASE_URL || !ON_PATH('pg_dump') || !ON_PATH('pg_restore')) return;
      const pg = (await import('pg')).default;
      const name = `tai_readme_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      onTestFinished(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      });
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      const dir = mkdtempSync(path.join(tmpdir(), 'tai-readme-pg-'));
      const envFile = path.join(dir, 'tai.env');
      writeFileSync(
        envFile,
        readFileSync('deploy/tai.env.example', 'utf8').replace(
          /^DATABASE_URL=.*$/m,
          `DATABASE_URL=${url.toString()}`,
        ),
      );
      const run = async (match: RegExp, cwd: string, fill: Record<string, string> = {}) => {
        let c = readmeCommand(match).replaceAll('/etc/tai/tai.env', envFile);
        for (const [from, to] of Object.entries(fill)) c = c.replaceAll(from, to);
        const r = await sh(c, cwd);
        expect(r.code, `${c}\n${r.stderr}`).toBe(0);
        return r.stdout;
      };
      const list = async () =>
        JSON.parse(
          (await sh(`(set -a; . ${envFile}; npm run -s keys -- list --json)`, ROOT)).stdout,
        ) as { id: string; revoked_at: string | null }[];

      const key = JSON.parse(await run(/keys -- create/, ROOT)) as { id: string; key: string };
      expect(key.key).toMatch(/^tai_live_/);
      expect(JSON.parse(await run(/keys -- usage/, ROOT, { '<old id>': key.id }))).toEqual([]);
      await run(/pg_dump/, dir);
      const dump = (await import('node:fs'))
        .readdirSync(dir)
        .find((f) => /^tai-\d{4}-\d{2}-\d{2}\.dump$/.test(f))!;
      expect(dump).toBeDefined();
      await run(/keys -- revoke/, ROOT, { '<old id>': key.id });
      expect((await list()).find((k) => k.id === key.id)!.revoked_at).not.toBeNull();
      // The restore brings the database back to the dump: the key is active again.
      await run(/pg_restore/, dir, { 'tai-<date>.dump': dump });
      expect((await list()).find((k) => k.id === key.id)!.revoked_at).toBeNull();
    },
  );

  it('copies the embedded SQLite with sqlite3 .backup', { timeout: 180_000 }, async () => {
    if (!ON_PATH('sqlite3')) return;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-readme-sqlite-'));
    const created = await sh(
      'npm run -s keys -- create --tier institutional --owner Copy --json',
      ROOT,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const r = await sh(readmeCommand(/^sqlite3 /), dataDir, { DATA_DIR: dataDir });
    expect(r.code, r.stderr).toBe(0);
    const check = await sh(
      'sqlite3 tai-copy.sqlite "PRAGMA integrity_check" "SELECT count(*) FROM api_keys"',
      dataDir,
    );
    expect(check.stdout.trim().split('\n')).toEqual(['ok', '1']);
  });
});
