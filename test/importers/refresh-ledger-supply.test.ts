// `npm run data:refresh` end to end on a temporary copy of the repository's data/, with REAL anvil
// nodes, one per chain id, for the nine EVM ledgers on which the coins issue most (Ethereum,
// Polygon, Arbitrum, BNB Chain, Avalanche, OP Mainnet, Base, Celo, Monad): a token contract at the
// address of every issued deployment on them. The refresh (onchain, then coin-supply) must give
// every live coin issued on those ledgers a dated ledger sum; the sum is complete for the coins
// issued on them alone, partial (naming each deployment not read) for the others; and dominance,
// built from the refreshed data, compares the complete sums. No ../shared input is needed.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { getAddress, isAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadData } from '../../src/authoring/load.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import { LEDGER_SOURCE } from '../../src/dataset/stablecoins.ts';
import { DEFAULT_CONFIG, readRefreshConfig } from '../../src/importers/refresh/config.ts';
import { startChain, type TestChain } from '../fixtures/importers/onchain/nodes.ts';
import { copyOfData, genesisOn, stopNodes } from '../helpers/data-roots.ts';

const START_MS = 180_000;
// The refresh checks the full data (data:check as its own process) and cuts the manifest: about
// 30 s on an idle machine, several times that on shared cores.
const RUN_MS = 400_000;
const CLI = path.join(import.meta.dirname, '../../scripts/data-refresh.ts');
const CHAINS = {
  ETH: 1,
  POL: 137,
  ARB: 42161,
  BNB: 56,
  AVA: 43114,
  OPT: 10,
  BAS: 8453,
  CLO: 42220,
  MON: 143,
};
type Ledger = keyof typeof CHAINS;

/* eslint-disable @typescript-eslint/no-explicit-any */
let root: string;
let datasetDate: string;
const nodes = new Map<Ledger, TestChain>();
/** Supply in tokens of each contract deployed, by ledger and lower-case address. */
const supplies = new Map<string, number>();

const coinFiles = () =>
  readdirSync(path.join(root, 'data/stablecoins'))
    .sort()
    .map((f) => parse(readFileSync(path.join(root, 'data/stablecoins', f), 'utf8')));

const issuedEvm = (coin: any): { ledger: string; address: string }[] =>
  (coin.deployments ?? [])
    .filter((d: any) => d.kind === 'issued' && d.contract_address && isAddress(d.contract_address))
    .map((d: any) => ({ ledger: d.ledger, address: d.contract_address }));

describe('npm run data:refresh: every coin issued on EVM ledgers gets a dated ledger sum', () => {
  beforeAll(async () => {
    ({ root, datasetDate } = copyOfData('tai-refresh-ledger-'));
    const genesisTime = genesisOn(datasetDate);
    const started = await Promise.all(
      Object.entries(CHAINS).map(
        async ([ledger, id]) =>
          [
            ledger as Ledger,
            await startChain(id, { multicall3: ledger === 'ETH', startMs: START_MS, genesisTime }),
          ] as const,
      ),
    );
    for (const [ledger, chain] of started) nodes.set(ledger, chain);
    // Each address gets its own token. A coin with a known circulating supply reads about that
    // figure (the refresh keeps out a first read past 5 × what is known); one without reads
    // hundreds of billions (under the 10^15 ceiling of a read nothing corroborates), so that the
    // ledger sums cover most of the market and the window is the refresh day's quarter.
    const addresses = new Map<Ledger, Set<string>>();
    const known = new Map<string, number>();
    for (const coin of coinFiles())
      for (const d of issuedEvm(coin))
        if (d.ledger in CHAINS) {
          addresses.set(
            d.ledger as Ledger,
            (addresses.get(d.ledger as Ledger) ?? new Set()).add(getAddress(d.address)),
          );
          const figure = coin.circulating_supply?.value;
          if (typeof figure === 'number' && figure > 0)
            known.set(`${d.ledger} ${d.address.toLowerCase()}`, Math.round(figure));
        }
    await Promise.all(
      [...addresses].map(async ([ledger, set]) => {
        const chain = nodes.get(ledger)!;
        let i = 0;
        for (const address of set) {
          const tokens =
            (known.get(`${ledger} ${address.toLowerCase()}`) ?? 200_000_000_000) + 1_000_000 * ++i;
          const token = await chain.deployToken(
            `T ${ledger} ${i}`,
            'T',
            6,
            BigInt(tokens) * 10n ** 6n,
          );
          await chain.cloneTo(token, address as Address);
          supplies.set(`${ledger} ${address.toLowerCase()}`, tokens);
        }
      }),
    );
  }, START_MS);

  afterAll(async () => {
    await stopNodes([...nodes.values()]);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test(
    'the refresh records each sum with its reads, and dominance compares the complete ones',
    async () => {
      const config = path.join(root, 'refresh.yaml');
      writeFileSync(
        config,
        JSON.stringify({
          guards: readRefreshConfig(DEFAULT_CONFIG).guards,
          sources: [{ importer: 'onchain' }, { importer: 'coin-supply' }],
        }),
      );
      const env: NodeJS.ProcessEnv = { ...process.env, TAI_TODAY: datasetDate };
      for (const [ledger, chain] of nodes) env[`RPC_URL_${ledger}`] = chain.url;
      // The nodes hold only the coins' tokens: the assets' contracts on these ledgers have no
      // code there, and a "no code" read of an asset is kept out for an editor (exit 4, reported,
      // not released). Only such reads may be kept out; every coin read must pass.
      const stdout = await promisify(execFile)(
        process.execPath,
        // The nodes' blocks are dated early on the dataset date: the run's clock is that morning.
        [
          CLI,
          '--root',
          root,
          '--config',
          config,
          '--date',
          datasetDate,
          '--now',
          `${datasetDate}T06:00:00Z`,
        ],
        { env, maxBuffer: 64 * 1024 * 1024 },
      ).then(
        (r) => r.stdout,
        (err: { code?: number; stdout?: string }) => {
          if (err.code !== 4) throw err;
          return err.stdout ?? '';
        },
      );
      expect(stdout).toContain('data:check: passed');
      // The section of the summary listing what was kept out, up to its blank line.
      const lines = stdout.split('\n');
      const from = lines.findIndex((l) => l.startsWith('kept out'));
      const keptOut = from === -1 ? [] : lines.slice(from + 1, lines.indexOf('', from));
      for (const line of keptOut) expect(line).toMatch(/^ {2}data\/assets\//);

      const complete: string[] = [];
      for (const coin of coinFiles()) {
        const issued = issuedEvm(coin).filter((d) => d.ledger in CHAINS);
        if (coin.status.value !== 'live' || issued.length === 0) {
          expect(coin.ledger_circulating_supply, coin.id).toBeUndefined();
          continue;
        }
        const sum = coin.ledger_circulating_supply;
        expect(sum, coin.id).toMatchObject({ kind: 'ledger_sum', as_of: datasetDate });
        // The sum of the issued contracts read, less what the issuer's wallets hold (none here).
        const seen = new Set(issued.map((d) => `${d.ledger} ${d.address.toLowerCase()}`));
        const expected = [...seen].reduce((n, k) => n + supplies.get(k)!, 0);
        expect(sum.value, coin.id).toBe(expected);
        expect(sum.reads.length, coin.id).toBe(seen.size);
        for (const r of sum.reads) expect(r.chain_id, coin.id).toBe(CHAINS[r.ledger as Ledger]);
        // Every issued deployment elsewhere is listed as not read; the sum is complete without any.
        const others = (coin.deployments ?? []).filter(
          (d: any) =>
            d.kind === 'issued' &&
            !seen.has(`${d.ledger} ${String(d.contract_address).toLowerCase()}`),
        );
        const distinct = new Set(others.map((d: any) => `${d.ledger} ${d.contract_address}`));
        expect(sum.not_read.length, coin.id).toBe(distinct.size);
        expect(sum.complete, coin.id).toBe(distinct.size === 0);
        if (sum.complete) complete.push(coin.id);
      }
      expect(complete.length).toBeGreaterThanOrEqual(10);

      // Dominance of the refreshed data: the window is the refresh day's quarter and compares the
      // complete ledger sums, each at its value and marked as read from the ledgers.
      const loaded = await loadData(root, datasetDate);
      expect(loaded.problems).toEqual([]);
      const d = buildDataset(
        { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
        'test',
        new Date(),
      ).market.dominance;
      expect(d.window!.start <= datasetDate && datasetDate <= d.window!.end).toBe(true);
      const compared = new Map(d.overall.map((r) => [r.id, r]));
      const outside = new Map(d.not_comparable.map((r) => [r.id, r]));
      let usd = 0;
      for (const id of complete) {
        const coin = coinFiles().find((c) => c.id === id);
        const row = compared.get(id);
        if (!row) {
          // A coin of another peg needs an ECB rate near the refresh day to be valued in USD.
          expect(coin.peg_currency, id).not.toBe('USD');
          expect(outside.get(id)?.reason, id).toMatch(/reference rate/);
          expect(outside.get(id)?.as_of, id).toBe(datasetDate);
          continue;
        }
        usd++;
        expect(row, id).toMatchObject({
          source: LEDGER_SOURCE,
          as_of: datasetDate,
          circulating_supply: coin.ledger_circulating_supply.value,
        });
      }
      expect(usd).toBeGreaterThanOrEqual(5);
      // A partial sum is never compared.
      for (const r of d.overall)
        if (r.source === LEDGER_SOURCE) expect(complete, r.id).toContain(r.id);
    },
    RUN_MS,
  );
});
