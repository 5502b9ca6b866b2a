// The client as a user gets it: `npm pack`, the tarball installed into a project outside the
// repository, its types checked by a TypeScript consumer, and its example (example/first-calls.mjs,
// the README's "First calls") run on Node 20 (the machine's /usr/bin/node) and on Node 24 (the
// project's pinned node) against the real server, signatures verified.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../../src/dataset/artifact.ts';
import { startServer, type TestServer } from '../../../test/helpers/server.ts';

const PACKAGE_DIR = path.resolve('clients/typescript');
const NODE_20 = process.env['TAI_NODE20'] ?? '/usr/bin/node';
const node20Version = existsSync(NODE_20)
  ? execFileSync(NODE_20, ['--version'], { encoding: 'utf8' }).trim()
  : null;
if (!node20Version?.startsWith('v20.') && process.env['CI'])
  throw new Error(`${NODE_20} is ${node20Version ?? 'missing'}: CI must have Debian's Node 20`);

const dataset = readDataset();
let server: TestServer;
let project: string;

beforeAll(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'tai-client-package-'));
  // npm pack runs prepack (the tsc build) and prints the tarball's name as JSON.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(work, packed[0]!.filename);
  expect(packed[0]!.files.map((f) => f.path)).toContain('dist/index.d.ts');
  expect(packed[0]!.files.some((f) => f.path.startsWith('src/'))).toBe(false);

  project = path.join(work, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-tai-client', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'],
    { cwd: project, encoding: 'utf8' },
  );
  copyFileSync(
    path.join(PACKAGE_DIR, 'example', 'first-calls.mjs'),
    path.join(project, 'first-calls.mjs'),
  );

  const key = path.join(work, 'signing.pem');
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
  server = await startServer({ SIGNING_KEY_FILE: key });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

function runExample(node: string): string {
  return execFileSync(node, ['first-calls.mjs'], {
    cwd: project,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'],
      TAI_BASE_URL: server.url,
      TAI_API_KEY: 'DEMO_KEY',
      TAI_VERIFY: '1',
    },
  });
}

function expectExampleOutput(out: string) {
  const funds = dataset.registry.rows.filter((r) => r.asset_class === 'FUND').length;
  expect(out).toMatch(
    new RegExp(
      `^asset TFIN-FUND-[A-Z]{3}-\\d{4}-\\d{4}: .+ \\(dataset ${dataset.dataset_version.replace(/\./g, '\\.')}\\)$`,
      'm',
    ),
  );
  expect(out).toMatch(/^rate limit: demo tier, \d+ of \d+ left$/m);
  expect(out).toContain(`funds: ${funds}\n`);
  expect(out).toContain(`stablecoins csv: ${dataset.market.coins.length} rows\n`);
  expect(out).toContain('refused: 400 invalid_parameter\n');
}

describe('the packed client installed outside the repository', () => {
  it('is the README’s example, word for word', () => {
    const example = readFileSync(path.join(PACKAGE_DIR, 'example', 'first-calls.mjs'), 'utf8');
    const readme = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
    expect(readme.startsWith('# @tai/client')).toBe(true);
    expect(readme.split('\n').find((l) => l.startsWith('## '))).toBe('## Installation');
    expect(readme).toContain('```js\n' + example + '```');
  });

  it('types its parameters: limit is a number, asset_class one of its values', () => {
    writeFileSync(
      path.join(project, 'consumer.ts'),
      `import { createTaiClient, type RateLimitState } from '@tai/client';
const tai = createTaiClient({ baseUrl: 'http://127.0.0.1' });
export const ok = tai.api.GET('/v1/registry/assets', { params: { query: { limit: 50, asset_class: 'FUND' } } });
// @ts-expect-error limit is a number
export const text = tai.api.GET('/v1/registry/assets', { params: { query: { limit: '50' } } });
// @ts-expect-error asset_class is one of its values
export const odd = tai.assetPages({ asset_class: 'SHARES' });
export const csv: Promise<string> = tai.bulk('/v1/market/stablecoins', 'csv', { dataset_version: 'x' });
export const state: RateLimitState | null = tai.rateLimit();
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    execFileSync(
      process.execPath,
      [path.resolve('node_modules/typescript/bin/tsc'), '-p', project],
      {
        encoding: 'utf8',
      },
    );
  }, 120_000);

  it.skipIf(!node20Version?.startsWith('v20.'))(
    `runs its example on Node 20 (${node20Version ?? `skipped: no ${NODE_20}`})`,
    () => expectExampleOutput(runExample(NODE_20)),
    60_000,
  );

  it(`runs its example on Node 24 (the project's pinned node, ${process.version})`, () => {
    expect(process.version.startsWith('v24.')).toBe(true);
    expectExampleOutput(runExample(process.execPath));
  }, 60_000);
});
