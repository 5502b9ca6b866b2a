// The Python client (clients/python) against the real server: pytest runs its tests in a virtual
// environment on Debian's /usr/bin/python3 with the system site packages (Debian's python3-httpx,
// -cryptography, -pytest, -pandas, -matplotlib; the package index is out of reach), the client
// installed with `pip install --no-deps`. Without those packages the suite skips with one line,
// except under CI, where it fails (.ci/run installs them).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/artifact.ts';
import { releasesDir } from '../../src/api/releases.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Debian's python3 (TAI_PYTHON names another, e.g. to see the skip).
const PYTHON = process.env['TAI_PYTHON'] ?? '/usr/bin/python3';
const MODULES = [
  'httpx',
  'cryptography',
  'pytest',
  'pandas',
  'matplotlib',
  'setuptools',
  'wheel',
  'venv',
  'ensurepip',
];
const DEBIAN =
  'python3-httpx python3-cryptography python3-pytest python3-pandas python3-matplotlib python3-setuptools python3-wheel python3-venv';

function missingPython(): string | null {
  if (!existsSync(PYTHON)) return `${PYTHON} is missing`;
  const probe = spawnSync(PYTHON, ['-c', `import ${MODULES.join(', ')}`], { encoding: 'utf8' });
  return probe.status === 0 ? null : `${PYTHON} cannot import ${MODULES.join(', ')}`;
}
const missing = missingPython();
if (missing && process.env['CI'])
  throw new Error(`${missing}: CI must have Debian's ${DEBIAN} (.ci/run installs them)`);

const datasetFile = path.resolve('build/dataset.json');
// An older release beside the current one, for the point-in-time read (removed afterwards).
const OLD = '2026-02-02.0123456789cd';
const OLD_ASSETS = 12;
let venv: string;
let server: TestServer;
let limited: TestServer;
let expectFile: string;
const oldFiles: string[] = [];

describe.skipIf(missing)(
  `the Python client against the real server${missing ? ` (skipped: ${missing}; apt-get install ${DEBIAN})` : ''}`,
  () => {
    beforeAll(async () => {
      const work = mkdtempSync(path.join(tmpdir(), 'tai-python-'));
      venv = path.join(work, 'venv');
      execFileSync(PYTHON, ['-m', 'venv', '--system-site-packages', venv]);
      // --no-build-isolation: setuptools comes from Debian too; the build happens in a copy so
      // the source tree stays clean.
      execFileSync('cp', ['-r', path.resolve('clients/python'), path.join(work, 'src')]);
      // A build/ left by an earlier in-place install would be reused as is.
      rmSync(path.join(work, 'src', 'build'), { recursive: true, force: true });
      execFileSync(
        path.join(venv, 'bin', 'pip'),
        [
          'install',
          '--no-deps',
          '--no-build-isolation',
          '--no-index',
          '--quiet',
          path.join(work, 'src'),
        ],
        { encoding: 'utf8' },
      );

      const core = readDataset(datasetFile);
      const dir = releasesDir(datasetFile);
      mkdirSync(dir, { recursive: true });
      const profiles = readFileSync(datasetFile.replace(/\.json$/, '.assets.ndjson'), 'utf8')
        .split('\n')
        .slice(0, OLD_ASSETS);
      oldFiles.push(path.join(dir, `${OLD}.assets.ndjson`), path.join(dir, `${OLD}.json`));
      writeFileSync(oldFiles[0]!, profiles.join('\n') + '\n');
      const rows = core.registry.rows.slice(0, OLD_ASSETS);
      writeFileSync(
        oldFiles[1]!,
        JSON.stringify({
          ...core,
          dataset_version: OLD,
          registry: {
            ...core.registry,
            rows,
            coverage: { ...core.registry.coverage, assets: OLD_ASSETS },
          },
        }),
      );

      const key = path.join(work, 'signing.pem');
      execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
      server = await startServer({ SIGNING_KEY_FILE: key });
      limited = await startServer({ SIGNING_KEY_FILE: key, RATE_LIMIT_DEMO: '2/2' });
      const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as {
        keys: { kid: string }[];
      };
      const coins = core.market.coins;
      expectFile = path.join(work, 'expect.json');
      writeFileSync(
        expectFile,
        JSON.stringify({
          dataset_version: core.dataset_version,
          assets: core.registry.rows.length,
          funds: core.registry.rows.filter((r) => r.asset_class === 'FUND').length,
          first_tfin: core.registry.rows[0]!.tfin,
          stablecoins: coins.length,
          eur_stablecoins: coins.filter((c) => c.peg_currency === 'EUR').length,
          old_version: OLD,
          old_assets: OLD_ASSETS,
          key_id: jwks.keys[0]!.kid,
        }),
      );
    }, 180_000);
    afterAll(async () => {
      await Promise.all([server?.stop(), limited?.stop()]);
      for (const file of oldFiles) rmSync(file, { force: true });
    });

    it('passes its pytest suite (every operation, paging, problems, 429, signatures, point in time)', () => {
      const run = spawnSync(
        path.join(venv, 'bin', 'python'),
        [
          '-m',
          'pytest',
          '-p',
          'no:cacheprovider',
          '-q',
          '-rs',
          path.resolve('clients/python/tests'),
        ],
        {
          encoding: 'utf8',
          env: {
            PATH: process.env['PATH'],
            TAI_TEST_BASE_URL: server.url,
            TAI_TEST_LIMITED_URL: limited.url,
            TAI_TEST_EXPECT: expectFile,
          },
        },
      );
      const output = `${run.stdout}${run.stderr}`;
      expect(run.status, output).toBe(0);
      // Nothing skipped: every test ran against the servers.
      expect(output, output).toMatch(/^\d+ passed in /m);
      expect(output).not.toMatch(/skipped/);
    }, 300_000);
  },
);
