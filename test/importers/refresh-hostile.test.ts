// `npm run data:refresh` against hostile, empty and absent sources, on a temporary copy of the
// repository's data/ and REAL anvil nodes (no RPC is mocked): a node whose tokens answer a
// totalSupply of 2^256−1 or 0, decimals of 255, or a name() with ESC and U+202E or 41 NULs; a
// node whose clock says 1970; a node with no contracts; and a run where every source fails. Each
// must release nothing wrong and exit with its documented code (docs/refreshing.md "Refreshing the data":
// 4 reported, not released; 5 nothing could be read). Needs no ../shared: only the onchain
// importer and local URLs are configured.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getAddress, isAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_CONFIG, readRefreshConfig } from '../../src/importers/refresh/config.ts';
import { freePort } from '../fixtures/importers/onchain/anvil.ts';
import { startChain, type TestChain } from '../fixtures/importers/onchain/nodes.ts';
import {
  changedFiles,
  copyOfData,
  recordsIn,
  snapshotData,
  stopNodes,
} from '../helpers/data-roots.ts';

const START_MS = 120_000;
// One run reads every EVM entry of the data, then data:check runs as its own process: seconds on
// an idle machine, several times that on shared cores.
const RUN_MS = 300_000;
const CLI = path.join(import.meta.dirname, '../../scripts/data-refresh.ts');
const MAX = 2n ** 256n - 1n;

let root: string;
let datasetDate: string;
const nodes: TestChain[] = [];

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const snapshot = () => snapshotData(root);
const records = (dir: string) => recordsIn(root, dir);

/** Live coins with an EVM deployment on ETH and a known circulating supply, largest first. */
function liveCoinsOnEth(): { file: string; address: Address; circulating: number }[] {
  const seen = new Set<string>();
  return records('data/stablecoins')
    .filter(([, c]) => c.status?.value === 'live' && c.circulating_supply?.value > 10_000_000)
    .sort(([, a], [, b]) => b.circulating_supply.value - a.circulating_supply.value)
    .flatMap(([file, c]) => {
      const d = (c.deployments ?? []).find(
        (d: Obj) => d.ledger === 'ETH' && d.contract_address && isAddress(d.contract_address),
      );
      if (!d || seen.has(d.contract_address.toLowerCase())) return [];
      seen.add(d.contract_address.toLowerCase());
      return [
        { file, address: getAddress(d.contract_address), circulating: c.circulating_supply.value },
      ];
    })
    .filter((c) => {
      // Only contracts no other coin file names, so that each read lands in one file.
      const named = records('data/stablecoins').filter(([, o]) =>
        (o.deployments ?? []).some(
          (d: Obj) => d.contract_address?.toLowerCase() === c.address.toLowerCase(),
        ),
      );
      return named.length === 1;
    });
}

/** Active assets with an ETH ledger entry, and the address as written in the file. */
function activeAssetsOnEth(): { file: string; written: string }[] {
  return records('data/assets')
    .filter(([, a]) => a.lifecycle_status === 'active')
    .flatMap(([file, a]) => {
      const l = (a.ledgers ?? []).find(
        (l: Obj) => l.ledger === 'ETH' && l.contract_address && isAddress(l.contract_address),
      );
      return l ? [{ file, written: l.contract_address as string }] : [];
    });
}

async function refresh(
  sources: unknown[],
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; stdout: string }> {
  const config = path.join(root, 'refresh.json');
  writeFileSync(
    config,
    JSON.stringify({ guards: readRefreshConfig(DEFAULT_CONFIG).guards, sources }),
  );
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of Object.keys(childEnv))
    if (k.startsWith('RPC_URL_') && !(k in env)) delete childEnv[k];
  delete childEnv['TAI_NOW'];
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [CLI, '--root', root, '--config', config, ...args],
      { env: childEnv, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? -1) : 0,
          stdout: stdout + stderr,
        }),
    ),
  );
}

/** The day after `date` plus `days`, as YYYY-MM-DD. */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(() => {
  ({ root, datasetDate } = copyOfData('tai-refresh-hostile-'));
});

afterAll(async () => {
  await stopNodes(nodes);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a hostile node', () => {
  let node: TestChain;
  let coins: ReturnType<typeof liveCoinsOnEth>;
  let assets: ReturnType<typeof activeAssetsOnEth>;

  beforeAll(async () => {
    // The chain starts on the dataset date, so its reads are dated on it.
    const genesisTime = Date.parse(`${datasetDate}T01:00:00Z`) / 1000;
    node = await startChain(1, { multicall3: true, startMs: START_MS, genesisTime });
    nodes.push(node);
    coins = liveCoinsOnEth().slice(0, 4);
    assets = activeAssetsOnEth().slice(0, 2);
    expect(coins).toHaveLength(4);
    expect(assets).toHaveLength(2);
    const [huge, zero, wide, good] = coins;
    const at = async (coin: (typeof coins)[number], decimals: number, supply: bigint) =>
      node.cloneTo(await node.deployToken('Hostile', 'HST', decimals, supply), coin.address);
    await at(huge!, 6, MAX); // 2^256−1
    await at(zero!, 6, 0n);
    await at(wide!, 255, 10n ** 12n);
    await at(good!, 6, 1_000_000n * 10n ** 6n); // 1,000,000: within 5 × its circulating supply (over 10,000,000)
    // The assets' contracts are the node's tokens: their names are longer than one storage slot,
    // so the temporary copy names the deployed addresses instead of cloning.
    const names = ['Evil\u001b[2J Fund \u202Edlrow', '\u0000'.repeat(41)];
    for (const [i, asset] of assets.entries()) {
      const token = await node.deployToken(names[i]!, 'EVL', 18, 5n * 10n ** 18n);
      const file = path.join(root, asset.file);
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll(asset.written, token));
    }
  }, START_MS);

  test(
    'releases nothing wrong: every hostile read is kept out and reported, the plausible one is written, exit 4',
    async () => {
      const before = snapshot();
      const { code, stdout } = await refresh([{ importer: 'onchain' }], { RPC_URL_ETH: node.url }, [
        '--date',
        datasetDate,
        '--now',
        `${datasetDate}T06:00:00Z`,
      ]);
      const after = snapshot();
      expect(code, stdout).toBe(4);
      expect(stdout).toContain('reported, not released (no manifest cut)');
      // No release manifest is cut, and none of the hostile figures reached a file.
      expect(changedFiles(before, after).filter((f) => f.startsWith('data/releases/'))).toEqual([]);
      const [huge, zero, wide, good] = coins;
      for (const c of [huge!, zero!, wide!])
        expect(after.get(c.file), c.file).toBe(before.get(c.file));
      for (const a of assets) expect(after.get(a.file), a.file).toBe(before.get(a.file));
      const written = parse(after.get(good!.file)!).deployments.find(
        (d: Obj) => d.contract_address?.toLowerCase() === good!.address.toLowerCase(),
      );
      expect(written.supply).toMatchObject({ kind: 'total_supply', value: 1_000_000, decimals: 6 });
      expect(changedFiles(before, after)).toEqual([good!.file]);

      const keptOut = stdout.slice(stdout.indexOf('kept out (not plausible, or unsafe text)'));
      const line = (file: string) =>
        keptOut.split('\n').find((l) => l.startsWith(`  ${file} `)) ?? '';
      expect(line(huge!.file)).toMatch(
        /the supply 1\.\d+e\+71 is more than 5 × the coin's circulating supply/,
      );
      expect(line(zero!.file)).toContain('the supply is zero for a live token');
      expect(line(wide!.file)).toContain('decimals 255 is outside 0–18');
      expect(line(assets[0]!.file)).toContain('holds the control character U+001B');
      expect(line(assets[1]!.file)).toContain('holds the control character U+0000');
      expect(stdout).toMatch(/^ {2}ETH: read \d+ of \d+ contract\(s\)$/m);
    },
    RUN_MS,
  );

  test(
    'data:check refuses the same texts the refresh kept out',
    async () => {
      const file = path.join(root, assets[0]!.file);
      const was = readFileSync(file, 'utf8');
      writeFileSync(file, was.replace(/^name: .*$/m, `name: "${'\\0'.repeat(41)}"`));
      try {
        const out = await new Promise<{ code: number; output: string }>((resolve) =>
          execFile(
            process.execPath,
            [path.join(import.meta.dirname, '../../scripts/data.ts'), 'check', '--root', root],
            { env: { ...process.env, TAI_TODAY: datasetDate }, maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr }),
          ),
        );
        expect(out.code).toBe(1);
        expect(out.output).toContain(
          `${assets[0]!.file}:2:7  name: holds the control character U+0000 at character 1`,
        );
        expect(out.output).toContain('[text-safe]');
      } finally {
        writeFileSync(file, was);
      }
    },
    RUN_MS,
  );
});

describe('a node whose clock says 1970', () => {
  test(
    'a read at a block dated 1970-01-01 is kept out, not re-dated; exit 4',
    async () => {
      const node = await startChain(1, { multicall3: true, startMs: START_MS, genesisTime: 0 });
      nodes.push(node);
      const coin = liveCoinsOnEth()[4]!;
      await node.cloneTo(
        await node.deployToken('Fine', 'FIN', 6, 1_000n * 10n ** 6n),
        coin.address,
      );
      const block = await node.latestBlock();
      expect(block.time.startsWith('1970-01-01T')).toBe(true);
      const before = snapshot();
      const { code, stdout } = await refresh([{ importer: 'onchain' }], { RPC_URL_ETH: node.url }, [
        '--date',
        datasetDate,
        '--now',
        `${datasetDate}T06:00:00Z`,
      ]);
      expect(code, stdout).toBe(4);
      expect(snapshot().get(coin.file)).toBe(before.get(coin.file));
      expect(stdout).toContain(
        `the block time ${block.time} is more than 6 h before the run's clock`,
      );
      expect(stdout).not.toMatch(/as_of.*1970|\(1970-01-01\)/);
    },
    RUN_MS + START_MS,
  );
});

describe('nothing could be read', () => {
  test(
    'an empty node: the summary says not read, per source and per ledger, not unchanged; exit 5, nothing written, the date kept',
    async () => {
      const node = await startChain(1, { multicall3: false, startMs: START_MS });
      nodes.push(node);
      const before = snapshot();
      const { code, stdout } = await refresh([{ importer: 'onchain' }], { RPC_URL_ETH: node.url }, [
        '--date',
        plusDays(datasetDate, 10),
      ]);
      expect(code, stdout).toBe(5);
      expect(changedFiles(before, snapshot())).toEqual([]);
      expect(stdout).toMatch(
        /^ {2}onchain: not read \(none of \d+ contract\(s\) on 1 ledger\(s\) answered\)$/m,
      );
      expect(stdout).toMatch(/^ {2}ETH: not read \(\d+ contract\(s\)\): no contract has code/m);
      expect(stdout).not.toMatch(/onchain: unchanged/);
      expect(stdout).toContain(`dataset date ${datasetDate} (kept: no source answered)`);
      expect(stdout).toContain('release manifest: not cut');
    },
    RUN_MS + START_MS,
  );

  test(
    'every source failing offline: exit 5, the dataset date does not move, no release is cut',
    async () => {
      const closed = `http://127.0.0.1:${await freePort()}`;
      const before = snapshot();
      const { code, stdout } = await refresh(
        [
          { importer: 'esma', url: `${closed}/CASPS.csv` },
          { importer: 'stablecoins', url: `${closed}/stablecoins` },
          { importer: 'coins', file: path.join(root, 'no-such-capture.csv') },
          { importer: 'onchain' },
        ],
        { RPC_URL_ETH: closed },
        ['--date', plusDays(datasetDate, 10), '--timeout', '2000'],
      );
      expect(code, stdout).toBe(5);
      expect(changedFiles(before, snapshot())).toEqual([]);
      expect(stdout).toContain(`dataset date ${datasetDate} (kept: no source answered)`);
      expect(stdout).toMatch(/^ {2}esma \S+: failed/m);
      expect(stdout).toMatch(/^ {2}stablecoins \S+: failed/m);
      expect(stdout).toMatch(/^ {2}coins \S+: failed/m);
      expect(stdout).toMatch(/^ {2}onchain: not read/m);
      expect(stdout).toMatch(/^ {2}ETH: not read \(\d+ contract\(s\)\): RPC_URL_ETH/m);
      expect(stdout).toContain(
        'No configured source could be read: nothing was written or released.',
      );
    },
    RUN_MS,
  );
});
