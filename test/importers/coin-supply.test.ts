// The coin-supply importer on REAL local EVM nodes, one per chain id: anvil as Ethereum (chain id
// 1, Multicall3), as Polygon (137, batched JSON-RPC) and as Base (8453); Arbitrum's endpoint is a
// port nobody listens on (a chain that cannot be read). Contracts are deployed from the fixed
// bytecode of test/fixtures/importers/onchain/contracts.json. No RPC is mocked. Checked: the sum
// over issued deployments, a bridged copy not counted twice, an issuer's wallet balance
// subtracted, an unreadable chain listed (the sum then partial), and — through the refresh with
// the deployed guard thresholds — a coin whose supply jumps past its guard held for review.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWalletClient, defineChain, http, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ledgerCirculatingSupply } from '../../src/domain/market.ts';
import { coinSupplyImporter } from '../../src/importers/onchain/coin-supply.ts';
import { DEFAULT_CONFIG, readRefreshConfig } from '../../src/importers/refresh/config.ts';
import { refresh } from '../../src/importers/refresh/run.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { freePort } from '../fixtures/importers/onchain/anvil.ts';
import {
  DEV_ACCOUNT,
  fixtureContracts,
  MULTICALL3,
  rpcProxy,
  startChain,
  type TestChain,
} from '../fixtures/importers/onchain/nodes.ts';
import { coinDeployment, stopNodes } from '../helpers/data-roots.ts';

const START_MS = 120_000;
const TEST_MS = 60_000;
const TREASURY: Address = '0x5754284f345afc66a98fbb0a0afe71e0f007b949';
const SOL_MINT = '2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK';

let eth: TestChain;
let pol: TestChain;
let bas: TestChain;
let deadArb: string;
let root: string;
const t = {} as Record<
  'ethUsd' | 'polUsd' | 'polBridged' | 'basUsd' | 'ethTres' | 'ethOnly',
  Address
>;

const coinYaml = (id: string, deployments: string, extra = '') =>
  `id: ${id}\nsymbol: ${id.toUpperCase()}\nname: Test coin ${id}\nstatus:\n  value: live\ndeployments:\n${deployments}${extra}circulating_supply:\n  value: null\n`;
const deployment = coinDeployment;

function writeData() {
  rmSync(path.join(root, 'data'), { recursive: true, force: true });
  mkdirSync(path.join(root, 'data/stablecoins'), { recursive: true });
  cpSync('data/codes', path.join(root, 'data/codes'), { recursive: true });
  writeFileSync(path.join(root, 'data/release.yaml'), 'dataset_date: "2026-11-20"\n');
  const coins: Record<string, string> = {
    // Issued on Ethereum and Polygon; a bridged copy on Polygon (minted against tokens locked on
    // Ethereum) and the same Ethereum contract listed again as bridged: neither is counted again.
    tusd: coinYaml(
      'tusd',
      deployment('ETH', t.ethUsd) +
        deployment('POL', t.polUsd) +
        deployment('POL', t.polBridged, 'bridged') +
        deployment('ETH', t.ethUsd, 'bridged'),
    ),
    // The issuer keeps part of its supply in an unreleased wallet: subtracted.
    tres: coinYaml(
      'tres',
      deployment('ETH', t.ethTres),
      `issuer_wallets:\n  - ledger: ETH\n    address: "${TREASURY}"\n    kind: unreleased\n`,
    ),
    // Issued on Base (read), on Arbitrum (its endpoint does not answer) and on Solana (not EVM).
    tpar: coinYaml(
      'tpar',
      deployment('BAS', t.basUsd) + deployment('ARB', t.basUsd) + deployment('SOL', SOL_MINT),
    ),
    // Only issued on Ethereum: the coin whose supply will jump.
    tjmp: coinYaml('tjmp', deployment('ETH', t.ethOnly)),
  };
  for (const [id, text] of Object.entries(coins))
    writeFileSync(path.join(root, `data/stablecoins/${id}.yaml`), text);
}

const env = () => ({
  RPC_URL_ETH: eth.url,
  RPC_URL_POL: pol.url,
  RPC_URL_BAS: bas.url,
  RPC_URL_ARB: deadArb,
});
const recorded = (id: string) =>
  parse(readFileSync(path.join(root, `data/stablecoins/${id}.yaml`), 'utf8'))
    .ledger_circulating_supply;

beforeAll(async () => {
  [eth, pol, bas] = await Promise.all([
    startChain(1, { multicall3: true, startMs: START_MS }),
    startChain(137, { multicall3: false, startMs: START_MS }),
    startChain(8453, { multicall3: false, startMs: START_MS }),
  ]);
  deadArb = `http://127.0.0.1:${await freePort()}`;
  t.ethUsd = await eth.deployToken('Test Dollar', 'TUSD', 6, 1_000_000_000_000n); // 1,000,000
  t.polUsd = await pol.deployToken('Test Dollar', 'TUSD', 6, 250_000_000_000n); // 250,000
  t.polBridged = await pol.deployToken('Test Dollar (bridged)', 'TUSD.e', 6, 400_000_000_000n);
  t.basUsd = await bas.deployToken('Test Par', 'TPAR', 18, 70n * 10n ** 18n);
  t.ethTres = await eth.deployToken('Test Treasury Coin', 'TRES', 6, 1_000_000_000n); // 1,000
  t.ethOnly = await eth.deployToken('Test Jump', 'TJMP', 6, 5_000_000_000n); // 5,000
  // 250 TRES move to the issuer's unreleased wallet.
  const chain = defineChain({
    id: 1,
    name: 'anvil 1',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [eth.url] } },
  });
  const wallet = createWalletClient({ account: DEV_ACCOUNT, chain, transport: http(eth.url) });
  await wallet.writeContract({
    address: t.ethTres,
    abi: fixtureContracts().MiniToken.abi,
    functionName: 'transfer',
    args: [TREASURY, 250_000_000n],
  });
  await eth.rpc('evm_mine', []);
  root = mkdtempSync(path.join(tmpdir(), 'tai-coin-supply-'));
}, START_MS);

afterAll(async () => {
  await stopNodes([eth, pol, bas]);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('coin-supply: circulating supply summed from the ledgers', () => {
  test(
    'sums issued deployments, leaves bridged copies out, subtracts the issuer wallet, lists what was not read',
    async () => {
      writeData();
      const blocks = {
        ETH: await eth.latestBlock(),
        POL: await pol.latestBlock(),
        BAS: await bas.latestBlock(),
      };
      const result = await coinSupplyImporter.run({
        root,
        input: null,
        previous: null,
        today: '2026-11-20',
        env: env(),
      });
      applyChanges(root, plan(root, result.changes));

      const tusd = recorded('tusd');
      expect(ledgerCirculatingSupply.parse(tusd)).toEqual(tusd);
      // 1,000,000 on Ethereum + 250,000 on Polygon; the 400,000 bridged copy is not added, nor is
      // the Ethereum contract counted a second time for its "bridged" listing.
      expect(tusd).toMatchObject({
        kind: 'ledger_sum',
        value: 1_250_000,
        complete: true,
        not_read: [],
      });
      expect(tusd.reads).toEqual([
        {
          ledger: 'ETH',
          contract_address: t.ethUsd,
          chain_id: 1,
          block_number: Number(blocks.ETH.number),
          block_time: blocks.ETH.time,
          total_supply: 1_000_000,
          issuer_held: [],
        },
        {
          ledger: 'POL',
          contract_address: t.polUsd,
          chain_id: 137,
          block_number: Number(blocks.POL.number),
          block_time: blocks.POL.time,
          total_supply: 250_000,
          issuer_held: [],
        },
      ]);
      expect(tusd.as_of).toBe([blocks.ETH.time, blocks.POL.time].sort()[0]!.slice(0, 10));

      // 1,000 minted, 250 held in the issuer's unreleased wallet: 750 circulate.
      const tres = recorded('tres');
      expect(tres.value).toBe(750);
      expect(tres.reads[0].issuer_held).toEqual([
        { address: TREASURY, kind: 'unreleased', balance: 250 },
      ]);

      // Base read; Arbitrum's endpoint is down and Solana is not read: a partial sum, saying so.
      const tpar = recorded('tpar');
      expect(tpar).toMatchObject({ value: 70, complete: false });
      expect(tpar.reads.map((r: { ledger: string }) => r.ledger)).toEqual(['BAS']);
      expect(tpar.not_read).toEqual([
        {
          ledger: 'ARB',
          contract_address: t.basUsd,
          reason: "the ledger's endpoint did not answer at the refresh",
        },
        {
          ledger: 'SOL',
          contract_address: SOL_MINT,
          reason: 'supply on Solana is not read from the ledger yet (only EVM ledgers are)',
        },
      ]);
      expect(result.report.find((l) => l.startsWith('ARB: NOT READ: '))).toMatch(
        /did not answer eth_chainId/,
      );
      expect(result.report).toContain(
        `coin tpar: ledger sum 70 on ${blocks.BAS.time.slice(0, 10)} (1 issued contract(s) read, 2 not read: partial)`,
      );

      // Re-run at the same blocks: nothing changes.
      const again = await coinSupplyImporter.run({
        root,
        input: null,
        previous: null,
        today: '2026-11-20',
        env: env(),
      });
      expect(plan(root, again.changes)).toEqual([]);
    },
    TEST_MS,
  );

  test(
    'in the refresh, a coin whose ledger sum jumps past its guard keeps its previous sum and is held for review',
    async () => {
      const config = readRefreshConfig(DEFAULT_CONFIG);
      const run = () =>
        refresh({
          root,
          config: { guards: config.guards, sources: [{ importer: 'coin-supply' }] },
          date: '2026-11-20',
          env: env(),
        });
      const before = recorded('tjmp');
      expect(before.value).toBe(5_000);
      await eth.mint(t.ethOnly, 5_000_000_000n); // +100 % on a 25 % guard
      await eth.mint(t.ethUsd, 10_000_000_000n); // +10,000 on 1,250,000: within the guard
      const outcome = await run();
      expect(recorded('tjmp')).toEqual(before);
      expect(outcome.held).toEqual([
        expect.objectContaining({
          path: 'data/stablecoins/tjmp.yaml',
          at: 'ledger_circulating_supply',
          kind: 'circulating_supply',
          change_pct: 100,
          max_change_pct: config.guards.max_change_pct.circulating_supply,
        }),
      ]);
      // The other coins' sums move on with the new blocks.
      expect(recorded('tusd').value).toBe(1_260_000);
    },
    TEST_MS,
  );
  test(
    "in a refresh after onchain, each ledger is pinned once and each contract read once: the sums are of onchain's reads, at its blocks",
    async () => {
      writeData();
      const proxy = await rpcProxy(eth.url);
      try {
        const outcome = await refresh({
          root,
          config: {
            guards: readRefreshConfig(DEFAULT_CONFIG).guards,
            sources: [{ importer: 'onchain' }, { importer: 'coin-supply' }],
          },
          date: '2026-11-20',
          env: { ...env(), RPC_URL_ETH: proxy.url },
        });
        expect(outcome.sources.map((s) => s.status)).toEqual(['written', 'written']);
        const methods = proxy.bodies
          .flatMap((b) => (Array.isArray(b) ? b : [b]))
          .map((r) => (r as { method: string; params: unknown[] }).method);
        expect(methods.filter((m) => m === 'eth_chainId')).toHaveLength(1);
        // eth_getCode precedes every token read: Multicall3's, then each contract's, once.
        const coded = proxy.bodies
          .flatMap((b) => (Array.isArray(b) ? b : [b]))
          .filter((r) => (r as { method: string }).method === 'eth_getCode')
          .map((r) => String((r as { params: unknown[] }).params[0]).toLowerCase());
        expect(coded.sort()).toEqual(
          [MULTICALL3, t.ethUsd, t.ethTres, t.ethOnly].map((a) => a.toLowerCase()).sort(),
        );
        // The sum's read is at the block of the supply onchain recorded on the deployment.
        const coin = parse(readFileSync(path.join(root, 'data/stablecoins/tusd.yaml'), 'utf8'));
        const supply = coin.deployments.find(
          (d: { ledger: string; kind: string }) => d.ledger === 'ETH' && d.kind === 'issued',
        ).supply;
        expect(coin.ledger_circulating_supply.reads[0]).toMatchObject({
          ledger: 'ETH',
          block_number: supply.block_number,
          total_supply: supply.value,
        });
      } finally {
        await proxy.close();
      }
    },
    TEST_MS,
  );
});
