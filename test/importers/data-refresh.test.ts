// `npm run data:refresh` end to end, on a temporary copy of the repository's data/: two REAL
// anvil nodes (Ethereum with Multicall3, Polygon without) holding token contracts at the
// addresses of some of the coins' real deployments, and local copies of the other sources (the
// captured ESMA register files, DefiLlama coin list and issuers' reports in ../shared/data). The
// refresh must give every deployment the nodes hold a dated total supply and change nothing else
// but the release manifest; a second run changes nothing; a supply that doubles is held by the
// guard while the other reads move on. The tests run in order on the same copy and nodes.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { getAddress, isAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_CONFIG, readRefreshConfig } from '../../src/importers/refresh/config.ts';
import { sharedData } from '../helpers/shared-data.ts';
import { startChain, type TestChain } from '../fixtures/importers/onchain/nodes.ts';
import { copyOfData, genesisOn, snapshotData, stopNodes } from '../helpers/data-roots.ts';

const captured = sharedData(
  'esma-register/2026-08-17-casps.csv',
  'esma-register/2026-08-21-emtwp.csv',
  'esma-register/2026-08-21-artzz.csv',
  'esma-register/2026-08-16-ncasp.csv',
  'defillama-stablecoins/coins.csv',
  'defillama-stablecoins/contracts.csv',
  'dated-figures/figures.csv',
);
const START_MS = 120_000;
// Each run imports the captured sources into the full data, checks it (data:check, as its own
// process) and cuts the release manifest: about 30 s on an idle machine, several times that on
// shared cores; the first run also reads every asset contract the nodes hold (hundreds).
const RUN_MS = 600_000;
const CLI = path.join(import.meta.dirname, '../../scripts/data-refresh.ts');

interface Held {
  chain: TestChain;
  ledger: 'ETH' | 'POL';
  address: Address;
  /** totalSupply in token units (6 decimals). */
  supply: number;
}

interface AssetContract {
  file: string;
  ledger: 'ETH' | 'POL';
  address: Address;
  symbol: string | null;
  decimals: number;
  level: string;
}

let root: string;
let datasetDate: string;
/** The asset contract whose token has another symbol than its record states. */
let disagreeing: AssetContract;
let eth: TestChain;
let pol: TestChain;
const held: Held[] = [];

const snapshot = () => snapshotData(root);

/** The EVM deployments of the coins on a ledger: [coin id, address as written]. */
function deploymentsOn(ledger: string): [string, string][] {
  return readdirSync(path.join(root, 'data/stablecoins'))
    .sort()
    .flatMap((f) => {
      const coin = parse(readFileSync(path.join(root, 'data/stablecoins', f), 'utf8'));
      return (coin.deployments ?? [])
        .filter(
          (d: { ledger: string; contract_address: string | null }) =>
            d.ledger === ledger && d.contract_address && isAddress(d.contract_address),
        )
        .map((d: { contract_address: string }) => [coin.id, d.contract_address]);
    });
}

/** A coin's circulating supply as recorded, 0 when unknown. */
function circulatingOf(id: string): number {
  const coin = parse(readFileSync(path.join(root, 'data/stablecoins', `${id}.yaml`), 'utf8'));
  return typeof coin.circulating_supply?.value === 'number' ? coin.circulating_supply.value : 0;
}

/** Every asset and series record's EVM contract on ETH and POL, with what the record states. */
function assetContracts(): AssetContract[] {
  return ['data/assets', 'data/assets/series'].flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .flatMap((f) => {
        const record = parse(readFileSync(path.join(root, dir, f), 'utf8'));
        return (record.ledgers ?? [])
          .filter(
            (l: { ledger: string; contract_address: string | null }) =>
              (l.ledger === 'ETH' || l.ledger === 'POL') &&
              l.contract_address &&
              isAddress(l.contract_address),
          )
          .map(
            (l: {
              ledger: 'ETH' | 'POL';
              contract_address: string;
              symbol?: string;
              decimals?: number;
            }) => ({
              file: `${dir}/${f}`,
              ledger: l.ledger,
              address: getAddress(l.contract_address),
              symbol: l.symbol ?? record.short_name ?? null,
              decimals: l.decimals ?? 6,
              level: record.validation.level,
            }),
          );
      }),
  );
}

async function refresh() {
  const config = path.join(root, 'refresh.yaml');
  const source = (file: string) => captured.file(file);
  writeFileSync(
    config,
    JSON.stringify({
      // The deployed thresholds: the run must pass them as a daily refresh would.
      guards: readRefreshConfig(DEFAULT_CONFIG).guards,
      sources: [
        ...['2026-08-17-casps', '2026-08-21-emtwp', '2026-08-21-artzz', '2026-08-16-ncasp'].map(
          (f) => ({ importer: 'esma', file: source(`esma-register/${f}.csv`) }),
        ),
        { importer: 'coins', file: source('defillama-stablecoins/coins.csv') },
        { importer: 'coin-figures', file: source('dated-figures/figures.csv') },
        { importer: 'stablecoins', url: '${TAI_TEST_DEFILLAMA_URL}' },
        { importer: 'onchain' },
      ],
    }),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RPC_URL_ETH: eth.url,
    RPC_URL_POL: pol.url,
    TAI_TODAY: datasetDate,
    // The run's clock: the nodes' blocks, dated from 01:00 on the dataset date, are recent by it.
    TAI_NOW: `${datasetDate}T06:00:00Z`,
  };
  delete env['TAI_TEST_DEFILLAMA_URL'];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      CLI,
      '--root',
      root,
      '--config',
      config,
      '--date',
      datasetDate,
      '--summary',
      path.join(root, 'summary.md'),
    ],
    { env, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

describe.skipIf(!captured.present)(`npm run data:refresh (${captured.reason})`, () => {
  beforeAll(async () => {
    ({ root, datasetDate } = copyOfData('tai-data-refresh-'));
    // The chains start on the dataset date, so what they hold is dated on it.
    const genesisTime = genesisOn(datasetDate);
    [eth, pol] = await Promise.all([
      startChain(1, { multicall3: true, startMs: START_MS, genesisTime }),
      startChain(137, { multicall3: false, startMs: START_MS, genesisTime }),
    ]);
    // Token contracts at the addresses of the first coins' deployments on each ledger.
    for (const [chain, ledger, count] of [
      [eth, 'ETH', 3],
      [pol, 'POL', 2],
    ] as const) {
      // Coins whose circulating supply is known: a first read is checked against it (a coin with
      // no figure beside the read is left for an editor, refresh-plausibility.test.ts).
      const addresses = [
        ...new Set(
          deploymentsOn(ledger)
            .filter(([id]) => circulatingOf(id) > 10_000_000)
            .map(([, a]) => getAddress(a)),
        ),
      ].slice(0, count);
      for (const [i, address] of addresses.entries()) {
        const supply = 1_000_000 * (held.length + 1) + i;
        const token = await chain.deployToken(`Token ${i}`, `T${i}`, 6, BigInt(supply) * 10n ** 6n);
        await chain.cloneTo(token, address);
        held.push({ chain, ledger, address, supply });
      }
    }
    // A token at every asset contract, as its record states it; one L1 record's reads another symbol.
    const contracts = assetContracts();
    disagreeing = contracts.find((c) => c.level === 'L1' && c.ledger === 'ETH' && c.symbol)!;
    const byKind = new Map<
      string,
      { chain: TestChain; symbol: string; decimals: number; at: Set<Address> }
    >();
    for (const c of contracts) {
      const symbol = c === disagreeing ? 'WRONG' : (c.symbol ?? 'UNSTATED');
      const kind = `${c.ledger} ${symbol} ${c.decimals}`;
      const group = byKind.get(kind) ?? {
        chain: c.ledger === 'ETH' ? eth : pol,
        symbol,
        decimals: c.decimals,
        at: new Set<Address>(),
      };
      group.at.add(c.address);
      byKind.set(kind, group);
    }
    // One MiniToken's code planted at each address, with its storage written directly (slot 0
    // name, 1 symbol, 2 decimals, 3 totalSupply; short strings inline): one deployment per chain.
    const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
    const shortString = (text: string) =>
      `0x${Buffer.from(text).toString('hex').padEnd(62, '0')}${(text.length * 2).toString(16).padStart(2, '0')}`;
    for (const chain of [eth, pol]) {
      const template = await chain.deployToken('Token', 'T', 6, 1n);
      const code = await chain.rpc('eth_getCode', [template, 'latest']);
      const groups = [...byKind.values()].filter((g) => g.chain === chain);
      await Promise.all(
        groups.flatMap(({ symbol, decimals, at }) =>
          [...at].map(async (address) => {
            await chain.rpc('anvil_setCode', [address, code]);
            const slots = [
              shortString(`${symbol} token`),
              shortString(symbol),
              word(BigInt(decimals)),
              word(10n ** BigInt(decimals + 6)),
            ];
            for (const [slot, value] of slots.entries())
              await chain.rpc('anvil_setStorageAt', [address, word(BigInt(slot)), value]);
          }),
        ),
      );
    }
    await Promise.all([eth.rpc('evm_mine', []), pol.rpc('evm_mine', [])]);
  }, START_MS * 2);

  afterAll(async () => {
    await stopNodes([eth, pol]);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test(
    'writes a dated total supply for every deployment the nodes hold, promotes every agreeing asset record and demotes the disagreeing one, and nothing else changes but the release manifest',
    async () => {
      const before = snapshot();
      const blocks = new Map([
        ['ETH', await eth.latestBlock()],
        ['POL', await pol.latestBlock()],
      ]);
      const stdout = await refresh();
      const after = snapshot();

      const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
        (f) => before.get(f) !== after.get(f),
      );
      const manifests = changed.filter((f) => f.startsWith('data/releases/'));
      const records = changed.filter((f) => !f.startsWith('data/releases/'));
      // The manifest of the dataset date is cut again (its content hash moved with the data).
      expect(manifests.length).toBeGreaterThanOrEqual(1);
      expect(manifests.every((f) => f.startsWith(`data/releases/${datasetDate}.`))).toBe(true);
      // Asset records change in their validation (the reads and the level) and in the decimals a
      // first agreeing read records, nothing else.
      const assets = records.filter((f) => f.startsWith('data/assets/'));
      expect(
        records.filter((f) => !f.startsWith('data/stablecoins/') && !f.startsWith('data/assets/')),
      ).toEqual([]);
      const levels = { promoted: [] as string[], demoted: [] as string[] };
      for (const file of assets) {
        const was = parse(before.get(file)!);
        const now = parse(after.get(file)!);
        if (was.validation.level === 'unverified' && now.validation.level === 'L1')
          levels.promoted.push(file);
        if (was.validation.level !== 'unverified' && now.validation.level === 'unverified')
          levels.demoted.push(file);
        for (const record of [was, now]) {
          delete record.validation;
          for (const l of record.ledgers) delete l.decimals;
        }
        expect(now, file).toEqual(was);
      }
      expect(levels.demoted).toEqual([disagreeing.file]);
      expect(levels.promoted.length).toBeGreaterThan(0);
      const demoted = parse(after.get(disagreeing.file)!);
      expect(demoted.validation.basis).toContain(`symbol "WRONG" read at block`);
      const tfinOf = (file: string) => parse(after.get(file)!).tfin;
      expect(stdout).toContain(
        `  ${tfinOf(disagreeing.file)}: DEMOTED L1 → unverified: a ledger read contradicts the record: ETH symbol "WRONG" read`,
      );
      expect(stdout).toContain(`  ${tfinOf(levels.promoted[0]!)}: PROMOTED unverified → L1: `);
      expect(stdout).toMatch(
        /validation levels changed: \d+ record\(s\); review each DEMOTED record/,
      );

      // Every deployment naming a held contract has its supply, at the node's block; no other has one.
      const isHeld = (ledger: string, address: string) =>
        held.find((h) => h.ledger === ledger && h.address.toLowerCase() === address.toLowerCase());
      let written = 0;
      for (const file of records.filter((f) => f.startsWith('data/stablecoins/'))) {
        const was = parse(before.get(file)!);
        const now = parse(after.get(file)!);
        for (const [i, d] of now.deployments.entries()) {
          const h = d.contract_address && isHeld(d.ledger, d.contract_address);
          if (!h) {
            expect(d.supply, `${file} ${d.ledger} ${d.contract_address}`).toBeUndefined();
            continue;
          }
          const block = blocks.get(h.ledger)!;
          expect(d.supply).toEqual({
            kind: 'total_supply',
            value: h.supply,
            as_of: datasetDate,
            chain_id: h.ledger === 'ETH' ? 1 : 137,
            block_number: Number(block.number),
            block_time: expect.stringMatching(new RegExp(`^${datasetDate}T`)),
            decimals: 6,
          });
          written++;
          delete now.deployments[i].supply;
        }
        // Apart from the supplies, the record is as it was.
        expect(now, file).toEqual(was);
      }
      const expected = held.reduce(
        (n, h) =>
          n +
          deploymentsOn(h.ledger).filter(([, a]) => a.toLowerCase() === h.address.toLowerCase())
            .length,
        0,
      );
      expect(written).toBe(expected);
      expect(written).toBeGreaterThanOrEqual(held.length);

      // The coins' supplies, and a supply for every asset contract read.
      expect(stdout).toMatch(
        new RegExp(
          `figures changed: ${written + assetContracts().filter((c, i, all) => all.findIndex((d) => d.file === c.file && d.ledger === c.ledger && d.address === c.address) === i).length}\\b`,
        ),
      );
      expect(stdout).toContain(
        'stablecoins ${TAI_TEST_DEFILLAMA_URL}: not configured (TAI_TEST_DEFILLAMA_URL not set)',
      );
      expect(stdout).toContain('data:check: passed');
      // The manifest and the release's body are cut; without a release key it says it is unsigned.
      const release = stdout.slice(stdout.indexOf('release manifest: '));
      expect(release).toMatch(/wrote .*data\/releases\/\S+\.json/);
      expect(release).toContain('is not signed: set RELEASE_SIGNING_KEY_FILE');
      // The deployments on those ledgers with no contract behind them on the test nodes are named.
      const others = deploymentsOn('ETH').filter(([, a]) => !isHeld('ETH', a));
      expect(stdout).toContain(
        `coin ${others[0]![0]} ETH ${others[0]![1]}: PROBLEM: has no contract code`,
      );
      // Ledgers without an endpoint are listed with their count, not read.
      expect(stdout).toMatch(/^ {2}ARB: RPC_URL_ARB is not set: \d+ contract\(s\)$/m);
      expect(stdout).toMatch(
        /^ {2}SOL: not an EVM ledger \(solana: RPC shape not read yet\): \d+ contract\(s\)$/m,
      );
      expect(readFileSync(path.join(root, 'summary.md'), 'utf8')).toContain(
        `## Data refresh of ${datasetDate}`,
      );
    },
    RUN_MS,
  );

  test(
    'a second run at the same blocks changes nothing',
    async () => {
      const before = snapshot();
      const stdout = await refresh();
      expect(snapshot()).toEqual(before);
      expect(stdout).toContain('figures changed: 0');
    },
    RUN_MS,
  );
  test(
    'a contract whose supply doubles is held at its previous value; the other reads of its ledger move on',
    async () => {
      const [jumper, ...others] = held.filter((h) => h.ledger === 'ETH');
      const supplyIn = (files: Map<string, string>, h: Held) =>
        [...files]
          .filter(([f]) => f.startsWith('data/stablecoins/'))
          .flatMap(([, text]) => parse(text).deployments ?? [])
          .find(
            (d: { ledger: string; contract_address: string }) =>
              d.ledger === h.ledger &&
              d.contract_address?.toLowerCase() === h.address.toLowerCase(),
          ).supply;
      const before = snapshot();
      await eth.mint(jumper!.address, BigInt(jumper!.supply) * 10n ** 6n); // +100 %
      const block = await eth.latestBlock();
      const stdout = await refresh();
      const after = snapshot();
      expect(supplyIn(after, jumper!)).toEqual(supplyIn(before, jumper!));
      for (const h of others)
        expect(supplyIn(after, h)).toEqual({
          ...supplyIn(before, h),
          block_number: Number(block.number),
          block_time: block.time,
        });
      expect(stdout).toMatch(
        new RegExp(
          `held for review \\(guard\\): 1 figure\\(s\\)[^\\n]*\\n  data/stablecoins/[a-z0-9-]+\\.yaml deployments ETH ${jumper!.address.toLowerCase()} supply \\[total_supply\\]: [\\d,]+ \\(${datasetDate}\\) → [\\d,]+ \\(${datasetDate}\\), \\+100\\.0 %; beyond ±50 % for total_supply: not published`,
        ),
      );
    },
    RUN_MS,
  );
});
