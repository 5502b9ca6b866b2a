// The scheduled refresh as deployed: the systemd service and timer (systemd-analyze verify when
// the machine has it, and the values an operator relies on), the script they run (shell syntax,
// the refresh's exit codes), its environment example (every variable the refresh configuration
// names), and the CI workflow that proposes the refresh as a pull request.
import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { itNeeding } from '../helpers/skip-note.ts';

const ROOT = path.resolve('.');
const UNIT_DIR = 'deploy/systemd';
const text = (file: string) => readFileSync(file, 'utf8');
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) =>
  existsSync(p),
);

/** `Key=value` lines of one section of a unit. */
function section(unit: string, name: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let inside = false;
  for (const raw of text(path.join(UNIT_DIR, unit)).split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (/^\[\w+\]$/.test(line)) {
      inside = line === `[${name}]`;
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (inside && kv) (out[kv[1]!] ??= []).push(kv[2]!);
  }
  return out;
}

describe('deploy/systemd: the daily data refresh', () => {
  it('the timer starts the service once a day and makes up a missed run', () => {
    const timer = section('tai-data-refresh.timer', 'Timer');
    expect(timer['OnCalendar']).toEqual(['*-*-* 05:30:00 UTC']);
    expect(timer['Persistent']).toEqual(['true']);
    expect(timer['Unit']).toEqual(['tai-data-refresh.service']);
    expect(section('tai-data-refresh.timer', 'Install')['WantedBy']).toEqual(['timers.target']);
  });

  it('the service runs the refresh script once, bounded, unprivileged, and counts exit 3 as done', () => {
    const s = section('tai-data-refresh.service', 'Service');
    expect(s['Type']).toEqual(['oneshot']);
    expect(s['User']).toEqual(['tai-refresh']);
    expect(s['ExecStart']).toEqual(['/opt/tai/current/deploy/systemd/tai-data-refresh.sh']);
    expect(s['SuccessExitStatus']).toEqual(['3']);
    expect(Number(s['TimeoutStartSec']![0])).toBeGreaterThan(0);
    expect(s['EnvironmentFile']).toEqual(['/etc/tai/refresh.env']);
    for (const flag of ['NoNewPrivileges', 'PrivateTmp', 'ProtectHome', 'PrivateDevices'])
      expect(s[flag], flag).toEqual(['yes']);
    expect(s['ProtectSystem']).toEqual(['strict']);
  });

  it('the script is executable, valid shell, and passes on the exit codes data:refresh documents', async () => {
    const script = path.join(UNIT_DIR, 'tai-data-refresh.sh');
    accessSync(script, constants.X_OK);
    await promisify(execFile)('sh', ['-n', script]);
    expect(text(script)).toContain('npm run --silent data:refresh -- --summary');
    // 4 (reported, not released) proposes the report and still fails the unit; 5 (nothing could
    // be read) and every other code stop before anything is pushed.
    expect(text(script)).toMatch(/^ {2}0 \| 3 \| 4\) ;;$/m);
    expect(text(script)).toMatch(/^exit "\$status"$/m);
    expect(section('tai-data-refresh.service', 'Service')['SuccessExitStatus']).toEqual(['3']);
    const cli = text('scripts/data-refresh.ts');
    expect(cli).toMatch(/Exit 3: refreshed, but figures are past/);
    expect(cli).toMatch(/Exit 4:\s+\/\/ reported, not released/);
    expect(cli).toMatch(/Exit 5: no configured source could be read/);
    expect(cli).toContain('reported: 4, nothingRead: 5');
  });

  it('the environment example names every variable the refresh configuration reads', () => {
    const env = text('deploy/tai-refresh.env.example');
    const values = parse(text('deploy/data-refresh.yaml')).sources.flatMap(
      (s: Record<string, string>) => [s['file'], s['url'], s['previous']].filter(Boolean),
    ) as string[];
    const names = values.flatMap((v) => [...v.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]!));
    expect(names.length).toBeGreaterThan(0);
    for (const name of [
      ...names,
      'RPC_URL_ETH',
      'GH_TOKEN',
      'TAI_REFRESH_REPO',
      'RELEASE_SIGNING_KEY_FILE',
    ])
      expect(env, name).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  itNeeding('systemd')('service and timer pass systemd-analyze verify', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-refresh-units-'));
    writeFileSync(
      path.join(dir, 'tai-data-refresh.service'),
      // Paths of this checkout instead of the installed ones, so that the command exists.
      text(path.join(UNIT_DIR, 'tai-data-refresh.service'))
        .replaceAll('/opt/tai/current', ROOT)
        .replaceAll('/etc/tai/refresh.env', path.resolve('deploy/tai-refresh.env.example'))
        .replace('ReadOnlyPaths=/opt/tai', `ReadOnlyPaths=${ROOT}`),
    );
    writeFileSync(
      path.join(dir, 'tai-data-refresh.timer'),
      text(path.join(UNIT_DIR, 'tai-data-refresh.timer')),
    );
    const out = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        SYSTEMD_ANALYZE!,
        [
          'verify',
          path.join(dir, 'tai-data-refresh.service'),
          path.join(dir, 'tai-data-refresh.timer'),
        ],
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, output: stdout + stderr }),
      ),
    );
    // systemd-analyze reports unknown keys and bad values on stderr and may still exit 0.
    const ours = out.output
      .split('\n')
      .filter((l) => l.includes(dir) || /tai-data-refresh/.test(l))
      .join('\n');
    expect(ours).toBe('');
    expect(out.code, out.output).toBe(0);
  });
});

describe('.github/workflows/data-refresh.yml', () => {
  const workflow = parse(text('.github/workflows/data-refresh.yml'));
  const steps: {
    uses?: string;
    run?: string;
    with?: Record<string, string>;
    env?: Record<string, string>;
  }[] = workflow.jobs.refresh.steps;

  it('runs the refresh daily and on demand, one at a time', () => {
    expect(workflow.on.schedule).toEqual([{ cron: '30 5 * * *' }]);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.concurrency.group).toBe('data-refresh');
  });

  it('reads the RPC URLs from a secret, masked, and passes exit 3 to the pull request', () => {
    const urls = steps.find((s) => s.env?.['RPC_URLS'])!;
    expect(urls.env!['RPC_URLS']).toBe('${{ secrets.DATA_REFRESH_RPC_URLS }}');
    expect(urls.run).toContain('::add-mask::');
    const refresh = steps.find((s) => s.run?.includes('npm run data:refresh'))!;
    expect(refresh.run).toContain('--summary "$RUNNER_TEMP/refresh-summary.md"');
    expect(refresh.run).toMatch(
      /-ne 0 \] && \[ "\$status" -ne 3 \] && \[ "\$status" -ne 4 \]; then exit "\$status"/,
    );
  });

  it('fails the run after proposing a refresh that kept reads out (exit 4); exit 5 fails before', () => {
    const last = steps.at(-1)!;
    expect((last as { if?: string }).if).toBe("steps.refresh.outputs.status == '4'");
    expect(last.run).toMatch(/exit 4\s*$/);
    const propose = steps.findIndex((s) => s.uses?.startsWith('peter-evans/create-pull-request@'));
    expect(steps.length - 1).toBeGreaterThan(propose);
  });

  it('proposes data/ as a pull request whose description is the refresh summary', () => {
    const propose = steps.find((s) => s.uses?.startsWith('peter-evans/create-pull-request@'))!;
    expect(propose.with).toMatchObject({
      branch: 'data-refresh',
      base: 'main',
      'add-paths': 'data/**',
      'body-path': '${{ runner.temp }}/refresh-summary.md',
    });
    expect(workflow.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    // The manifest the refresh cuts is signed when the release key is a secret of the repository.
    const key = steps.find((s) => s.env?.['RELEASE_SIGNING_KEY'])!;
    expect(key.run).toContain('RELEASE_SIGNING_KEY_FILE=');
  });
});
