// The on-ledger importer reading coins' deployments and assets' ledger entries on several REAL
// local EVM nodes at once: anvil as Ethereum (chain id 1, Multicall3 at its canonical address),
// anvil as Polygon (137, no Multicall3: batched JSON-RPC) and anvil as Base (8453), which is
// killed after the importer pinned its block. Contracts are deployed by the test from fixed
// bytecode (test/fixtures/importers/onchain/contracts.json). No RPC is mocked.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { technicalEvidence } from '../../src/domain/asset.ts';
import { stablecoinDeployment } from '../../src/domain/market.ts';
import { onchainImporter } from '../../src/importers/onchain/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import type { ImportResult } from '../../src/importers/shared/importer.ts';
import { freePort } from '../fixtures/importers/onchain/anvil.ts';
import {
  rpcProxy,
  startChain,
  type RpcProxy,
  type TestChain,
} from '../fixtures/importers/onchain/nodes.ts';
import { coinDeployment, stopNodes } from '../helpers/data-roots.ts';

// Three anvil nodes start on a shared machine: a generous budget for the start only.
const START_MS = 120_000;
const TEST_MS = 60_000;
const NO_CODE: Address = '0x000000000000000000000000000000000000dEaD';

let eth: TestChain;
let pol: TestChain;
let bas: TestChain;
let ethProxy: RpcProxy;
let polProxy: RpcProxy;
const t = {} as Record<
  'ethUsd' | 'ethEur' | 'ethBroken' | 'polUsd' | 'polBroken' | 'basUsd' | 'fund',
  Address
>;
let root: string;

const coinYaml = (id: string, deployments: string) =>
  `id: ${id}\nsymbol: ${id.toUpperCase()}\nname: Test coin ${id}\ndeployments:\n${deployments}`;
const deployment = coinDeployment;

function writeData() {
  rmSync(path.join(root, 'data'), { recursive: true, force: true });
  mkdirSync(path.join(root, 'data/stablecoins'), { recursive: true });
  mkdirSync(path.join(root, 'data/assets'), { recursive: true });
  cpSync('data/codes', path.join(root, 'data/codes'), { recursive: true });
  const coins: Record<string, string> = {
    tusd: coinYaml(
      'tusd',
      deployment('ETH', t.ethUsd) +
        deployment('POL', t.polUsd, 'bridged') +
        deployment('BAS', t.basUsd) +
        deployment('SOL', '2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK') +
        deployment('ARB', t.ethUsd),
    ),
    teur: coinYaml('teur', deployment('ETH', t.ethEur)),
    tbrk: coinYaml(
      'tbrk',
      deployment('ETH', t.ethBroken) + deployment('POL', t.polBroken) + deployment('ETH', NO_CODE),
    ),
  };
  for (const [id, text] of Object.entries(coins))
    writeFileSync(path.join(root, `data/stablecoins/${id}.yaml`), text);
  writeFileSync(
    path.join(root, 'data/assets/TFIN-FUND-POL-2026-0901.yaml'),
    [
      'tfin: TFIN-FUND-POL-2026-0901',
      'ledgers:',
      '  - ledger: POL',
      '    token_standard: ERC-20',
      `    contract_address: "${t.fund}"`,
      '    contract_address_null_reason: null',
      'validation:',
      '  level: L1',
      '  basis: Contract and supply read from the ledger.',
      '',
    ].join('\n'),
  );
}

const run = (env: Record<string, string>) =>
  onchainImporter.run({ root, input: null, previous: null, today: '2026-11-22', env });

const after = (result: ImportResult, file: string) => {
  const change = result.changes.find((c) => c.path === file);
  return change ? parse(change.after) : undefined;
};
const supplyOf = (
  doc: { deployments: { ledger: string; contract_address: string; supply?: unknown }[] },
  ledger: string,
  address: string,
) => doc.deployments.find((d) => d.ledger === ledger && d.contract_address === address)?.supply;

beforeAll(async () => {
  [eth, pol, bas] = await Promise.all([
    startChain(1, { multicall3: true, startMs: START_MS }),
    startChain(137, { multicall3: false, startMs: START_MS }),
    startChain(8453, { multicall3: false, startMs: START_MS }),
  ]);
  t.ethUsd = await eth.deployToken('Test Dollar', 'TUSD', 6, 1_234_567_890_000n);
  t.ethEur = await eth.deployToken('Test Euro', 'TEUR', 18, 5n * 10n ** 24n);
  t.ethBroken = await eth.deploy('RevertingSupply');
  t.polUsd = await pol.deployToken('Test Dollar (PoS)', 'TUSD', 6, 42_000_000n);
  t.polBroken = await pol.deploy('RevertingSupply');
  t.fund = await pol.deployToken('Test Fund Share', 'TFS', 2, 98_765n);
  t.basUsd = await bas.deployToken('Test Dollar', 'TUSD', 6, 7_000_000n);
  ethProxy = await rpcProxy(eth.url);
  polProxy = await rpcProxy(pol.url);
  root = mkdtempSync(path.join(tmpdir(), 'tai-onchain-supply-'));
}, START_MS);

afterAll(async () => {
  await Promise.all([ethProxy?.close(), polProxy?.close()]);
  await stopNodes([eth, pol, bas]);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('onchain importer: supply of every EVM deployment on two live nodes', () => {
  test(
    'writes a dated total supply for every deployment the nodes hold, at one block per ledger',
    async () => {
      writeData();
      const [ethBlock, polBlock] = [await eth.latestBlock(), await pol.latestBlock()];
      const result = await run({ RPC_URL_ETH: ethProxy.url, RPC_URL_POL: polProxy.url });
      const tusd = after(result, 'data/stablecoins/tusd.yaml');
      expect(supplyOf(tusd, 'ETH', t.ethUsd)).toEqual({
        kind: 'total_supply',
        value: 1_234_567.89,
        as_of: ethBlock.time.slice(0, 10),
        chain_id: 1,
        block_number: Number(ethBlock.number),
        block_time: ethBlock.time,
        decimals: 6,
      });
      expect(supplyOf(tusd, 'POL', t.polUsd)).toEqual({
        kind: 'total_supply',
        value: 42,
        as_of: polBlock.time.slice(0, 10),
        chain_id: 137,
        block_number: Number(polBlock.number),
        block_time: polBlock.time,
        decimals: 6,
      });
      expect(supplyOf(after(result, 'data/stablecoins/teur.yaml'), 'ETH', t.ethEur)).toMatchObject({
        value: 5_000_000,
        decimals: 18,
        chain_id: 1,
      });
      // Written deployments are valid records of the published shape.
      for (const d of tusd.deployments) expect(stablecoinDeployment.parse(d)).toEqual(d);
      // Ledgers without an endpoint, and non-EVM ledgers, are named, not read.
      expect(supplyOf(tusd, 'BAS', t.basUsd)).toBeUndefined();
      expect(supplyOf(tusd, 'ARB', t.ethUsd)).toBeUndefined();
      expect(supplyOf(tusd, 'SOL', '2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK')).toBeUndefined();
      expect(result.report).toContain(
        `not read, ARB: RPC_URL_ARB is not set: 1 contract(s): coin tusd ${t.ethUsd}`,
      );
      expect(result.report).toContain(
        'not read, SOL: not an EVM ledger (solana: RPC shape not read yet): 1 contract(s): coin tusd 2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK',
      );
      // The asset's ledger entry gets L1 evidence from the same read.
      const fund = after(result, 'data/assets/TFIN-FUND-POL-2026-0901.yaml');
      const [evidence] = fund.validation.evidence.technical;
      expect(technicalEvidence.parse(evidence)).toMatchObject({
        ledger: 'POL',
        method: 'rpc',
        supply: 987.65,
        name: 'Test Fund Share',
        symbol: 'TFS',
        decimals: 2,
        chain_id: 137,
        block_number: Number(polBlock.number),
      });
    },
    TEST_MS,
  );

  test(
    'Ethereum is read through Multicall3, Polygon (without it) in JSON-RPC batches',
    async () => {
      writeData();
      ethProxy.bodies.length = 0;
      polProxy.bodies.length = 0;
      const result = await run({ RPC_URL_ETH: ethProxy.url, RPC_URL_POL: polProxy.url });
      expect(result.report.find((l) => l.startsWith('ETH:'))).toMatch(/read with multicall3$/);
      expect(result.report.find((l) => l.startsWith('POL:'))).toMatch(
        /read with batched JSON-RPC$/,
      );
      const calls = (bodies: unknown[]) =>
        bodies.flatMap((b) => (Array.isArray(b) ? b : [b])) as {
          method: string;
          params: [{ to: string }, string];
        }[];
      // Ethereum: every token call went through the Multicall3 contract, at the pinned block.
      const ethCalls = calls(ethProxy.bodies).filter((c) => c.method === 'eth_call');
      expect(ethCalls.length).toBeGreaterThan(0);
      expect(new Set(ethCalls.map((c) => c.params[0].to.toLowerCase()))).toEqual(
        new Set(['0xca11bde05977b3631167028862be2a173976ca11']),
      );
      expect(new Set(ethCalls.map((c) => c.params[1])).size).toBe(1);
      // Polygon: one eth_call per function, sent together as one JSON-RPC batch.
      const batches = polProxy.bodies.filter(
        (b) => Array.isArray(b) && b.some((c: { method: string }) => c.method === 'eth_call'),
      ) as unknown[][];
      expect(batches).toHaveLength(1);
      // name, symbol, decimals, totalSupply of the fund; decimals, totalSupply of two coins.
      expect(batches[0]).toHaveLength(4 + 2 + 2);
    },
    TEST_MS,
  );

  test(
    'a token whose totalSupply reverts, or a contract with no code, is named and gets nothing',
    async () => {
      writeData();
      const result = await run({ RPC_URL_ETH: ethProxy.url, RPC_URL_POL: polProxy.url });
      const tbrk = after(result, 'data/stablecoins/tbrk.yaml');
      expect(tbrk).toBeUndefined();
      const ethBlock = /^ETH: chain id 1, block (\d+)/m.exec(result.report.join('\n'))![1];
      const polBlock = /^POL: chain id 137, block (\d+)/m.exec(result.report.join('\n'))![1];
      const broken = result.report.filter((l) => l.includes('coin tbrk'));
      expect(broken).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(
              `^  coin tbrk ETH ${t.ethBroken}: PROBLEM: totalSupply\\(\\) failed at block ${ethBlock} \\(.*revert.*\\); nothing written$`,
              'i',
            ),
          ),
          expect.stringMatching(
            new RegExp(
              `^  coin tbrk POL ${t.polBroken}: PROBLEM: totalSupply\\(\\) failed at block ${polBlock} \\(.*supply unavailable.*\\); nothing written$`,
            ),
          ),
          `  coin tbrk ETH ${NO_CODE}: PROBLEM: has no contract code at block ${ethBlock}; nothing written`,
        ]),
      );
      expect(result.report).toContain(
        'not read, kept as recorded and listed for review: 3 contract(s)',
      );
    },
    TEST_MS,
  );

  test(
    'a node killed after its block was pinned: its deployments are named and keep their values, the other ledgers are written',
    async () => {
      writeData();
      const basProxy = await rpcProxy(bas.url, {
        killAfter: 'eth_getBlockByNumber',
        kill: () => bas.anvil.stop(),
      });
      try {
        const result = await run({
          RPC_URL_ETH: ethProxy.url,
          RPC_URL_POL: polProxy.url,
          RPC_URL_BAS: basProxy.url,
          RPC_TIMEOUT_MS: '3000',
        });
        expect(bas.anvil.stopped()).toBe(true);
        const tusd = after(result, 'data/stablecoins/tusd.yaml');
        expect(supplyOf(tusd, 'BAS', t.basUsd)).toBeUndefined();
        expect(supplyOf(tusd, 'ETH', t.ethUsd)).toMatchObject({ value: 1_234_567.89 });
        expect(result.report.find((l) => l.startsWith('BAS:'))).toMatch(
          /^BAS: chain id 8453, block \d+ .*read with batched JSON-RPC$/,
        );
        expect(result.report).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^  coin tusd BAS ${t.basUsd}: PROBLEM: eth_getCode failed \\(.+\\); nothing written$`,
            ),
          ),
        );
        expect(result.report).toContain(
          'not read, kept as recorded and listed for review: 4 contract(s)',
        );
      } finally {
        await basProxy.close();
      }
    },
    TEST_MS,
  );

  test(
    'a ledger whose node does not answer at all is listed with its deployments; the others are written',
    async () => {
      writeData();
      const result = await run({
        RPC_URL_ETH: ethProxy.url,
        RPC_URL_POL: polProxy.url,
        RPC_URL_BAS: `http://127.0.0.1:${await freePort()}`,
        RPC_TIMEOUT_MS: '3000',
      });
      expect(result.report).toContainEqual(
        expect.stringMatching(
          /^BAS: NOT READ: RPC_URL_BAS \(http:\/\/127\.0\.0\.1:\d+\): did not answer eth_chainId \(.+\); recorded values kept$/,
        ),
      );
      expect(result.report).toContain(`  coin tusd BAS ${t.basUsd}`);
      expect(supplyOf(after(result, 'data/stablecoins/tusd.yaml'), 'ETH', t.ethUsd)).toBeDefined();
    },
    TEST_MS,
  );

  test(
    'a second run at the same blocks changes nothing; after a mint only that supply moves',
    async () => {
      writeData();
      const env = { RPC_URL_ETH: ethProxy.url, RPC_URL_POL: polProxy.url };
      applyChanges(root, plan(root, (await run(env)).changes));
      const again = await run(env);
      expect(plan(root, again.changes)).toEqual([]);
      expect(again.report).toContain(
        `  coin tusd ETH ${t.ethUsd}: total supply 1234567.89 (6 decimals), as recorded`,
      );

      await eth.mint(t.ethUsd, 10_000_000n);
      const moved = await run(env);
      expect(plan(root, moved.changes).map((c) => c.path)).toEqual([
        'data/stablecoins/teur.yaml',
        'data/stablecoins/tusd.yaml',
      ]);
      const tusd = after(moved, 'data/stablecoins/tusd.yaml');
      expect(supplyOf(tusd, 'ETH', t.ethUsd)).toMatchObject({ value: 1_234_577.89 });
      // Polygon did not move: its supply, block and date are as recorded.
      const recorded = parse(readFileSync(path.join(root, 'data/stablecoins/tusd.yaml'), 'utf8'));
      expect(supplyOf(tusd, 'POL', t.polUsd)).toEqual(supplyOf(recorded, 'POL', t.polUsd));
    },
    TEST_MS,
  );

  test(
    'a supply recorded at a later block than the node serves is kept and reported',
    async () => {
      writeData();
      const env = { RPC_URL_ETH: ethProxy.url, RPC_URL_POL: polProxy.url };
      const first = await run(env);
      applyChanges(root, plan(root, first.changes));
      const file = path.join(root, 'data/stablecoins/teur.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/block_number: \d+/, 'block_number: 99999999'),
      );
      const result = await run(env);
      expect(after(result, 'data/stablecoins/teur.yaml')).toBeUndefined();
      expect(result.report).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^  coin teur ETH ${t.ethEur}: REVIEW: the recorded supply is from a later block \\(99999999\\) than the one read \\(\\d+\\); kept$`,
          ),
        ),
      );
    },
    TEST_MS,
  );
});
