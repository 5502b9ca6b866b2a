// The on-ledger importer against a REAL local EVM node: anvil (from the npm registry) started by
// the test, an ERC-20 deployed with viem from fixed bytecode (fixtures/importers/onchain/
// contracts.json, built from the .sol files beside it). No RPC is mocked. Several nodes at once,
// coins' deployments, batching and a node dying mid-run: onchain-supply.test.ts.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { technicalEvidence } from '../../src/domain/asset.ts';
import { readDataDocs, renderDoc } from '../../src/importers/shared/data-docs.ts';
import { onchainImporter } from '../../src/importers/onchain/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import type { ImportResult } from '../../src/importers/shared/importer.ts';
import { freePort, startAnvil, type Anvil } from '../fixtures/importers/onchain/anvil.ts';
import { DEV_ACCOUNT, fixtureContracts } from '../fixtures/importers/onchain/nodes.ts';

// CI machines are about 3x slower than a developer's: anvil's start gets a generous budget.
const START_MS = 90_000;
const TEST_MS = 60_000;
const FIXTURES = path.join(import.meta.dirname, '../fixtures/importers/onchain');
const NO_CODE: Address = '0x000000000000000000000000000000000000dEaD';

let anvil: Anvil;
let token: Address;
let notAToken: Address;
let root: string;
let mint: (value: bigint) => Promise<void>;
const chain = defineChain({
  id: 1,
  name: 'anvil as Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});

function writeAsset(name: string, address: string, ledger = 'ETH') {
  const text = readFileSync(path.join(FIXTURES, 'asset.yaml'), 'utf8')
    .replaceAll('{{ADDRESS}}', address)
    .replaceAll('ledger: ETH', `ledger: ${ledger}`)
    .replace('TFIN-FUND-ETH-2026-0901', name);
  writeFileSync(path.join(root, 'data/assets', `${name}.yaml`), text);
}

const run = (env: Record<string, string>) =>
  onchainImporter.run({ root, input: null, previous: null, today: '2026-11-22', env });

const changed = (result: ImportResult, name: string) =>
  result.changes.find((c) => c.path === `data/assets/${name}.yaml`);

beforeAll(async () => {
  anvil = await startAnvil(1, START_MS);
  const { MiniToken, NotAToken } = fixtureContracts();
  const transport = http(anvil.url);
  const wallet = createWalletClient({ account: DEV_ACCOUNT, chain, transport });
  const client = createPublicClient({ chain, transport });
  const deploy = async (c: { abi: Abi; bytecode: Hex }, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi: c.abi, bytecode: c.bytecode, args });
    return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
  };
  token = await deploy(MiniToken!, ['Test Treasury Token', 'TTT', 6, 1_234_567_890_000n]);
  notAToken = await deploy(NotAToken!, []);
  mint = async (value) => {
    const hash = await wallet.writeContract({
      address: token,
      abi: MiniToken!.abi,
      functionName: 'mint',
      args: [value],
    });
    await client.waitForTransactionReceipt({ hash });
  };
  root = mkdtempSync(path.join(tmpdir(), 'tai-onchain-'));
  mkdirSync(path.join(root, 'data/assets'), { recursive: true });
  // The importer learns which ledgers are EVM chains, and their chain ids, from the code table.
  cpSync('data/codes', path.join(root, 'data/codes'), { recursive: true });
  writeAsset('TFIN-FUND-ETH-2026-0901', token);
}, START_MS);

afterAll(async () => {
  await anvil?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('onchain importer on a local anvil node', () => {
  test(
    'records the contract as the chain has it at one named block, keeping other evidence',
    async () => {
      const client = createPublicClient({ chain, transport: http(anvil.url) });
      const block = await client.getBlock({ blockTag: 'latest' });
      const result = await run({ RPC_URL_ETH: anvil.url });
      const after = parse(changed(result, 'TFIN-FUND-ETH-2026-0901')!.after);
      const [explorer, rpc] = after.validation.evidence.technical;
      expect(explorer.method).toBe('explorer');
      const blockTime = new Date(Number(block.timestamp) * 1000)
        .toISOString()
        .replace('.000Z', 'Z');
      expect(rpc).toEqual({
        ledger: 'ETH',
        contract_address: token,
        method: 'rpc',
        source: null,
        token_standard: 'ERC-20',
        supply: 1_234_567.89,
        as_of: blockTime.slice(0, 10),
        chain_id: 1,
        block_number: Number(block.number),
        block_time: blockTime,
        name: 'Test Treasury Token',
        symbol: 'TTT',
        decimals: 6,
        code: true,
      });
      expect(technicalEvidence.parse(rpc)).toEqual(rpc);
      expect(result.report).toContain(
        'not read, SOL: not an EVM ledger (solana: RPC shape not read yet): 1 contract(s): asset TFIN-FUND-ETH-2026-0901 2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK',
      );
    },
    TEST_MS,
  );

  test(
    'only the evidence changes: comments, flow collections and other fields survive',
    async () => {
      const before = readFileSync(
        path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0901.yaml'),
        'utf8',
      );
      const after = changed(
        await run({ RPC_URL_ETH: anvil.url }),
        'TFIN-FUND-ETH-2026-0901',
      )!.after;
      expect(after.startsWith(before.slice(0, before.indexOf('    documents:')))).toBe(true);
      expect(after).toContain('method: explorer # kept: a person');
      expect(after).toContain('    documents: [prospectus-2026]\n');
      expect(after).toContain('credit: { underlying_credit: us_treasury, structure: fund_unit }');
      expect(after).toMatch(
        new RegExp(
          [
            '      - ledger: ETH',
            `        contract_address: "${token}"`,
            '        method: rpc',
            '        source: null',
            '        token_standard: ERC-20',
            '        supply: 1234567.89',
            '        as_of: "\\d{4}-\\d{2}-\\d{2}"',
            '        chain_id: 1',
            '        block_number: \\d+',
            '        block_time: "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z"',
            '        name: Test Treasury Token',
            '        symbol: TTT',
            '        decimals: 6',
            '        code: true',
            '    documents: \\[prospectus-2026\\]',
          ].join('\n'),
        ),
      );
    },
    TEST_MS,
  );

  test(
    'a second run after the supply changed replaces its rpc entry instead of adding one',
    async () => {
      const first = await run({ RPC_URL_ETH: anvil.url });
      applyChanges(root, plan(root, first.changes));
      await mint(10_000_000n);
      const second = await run({ RPC_URL_ETH: anvil.url });
      const technical = parse(changed(second, 'TFIN-FUND-ETH-2026-0901')!.after).validation.evidence
        .technical;
      expect(technical.map((e: { method: string }) => e.method)).toEqual(['explorer', 'rpc']);
      expect(technical[1].supply).toBe(1_234_577.89);
      expect(technical[1].block_number).toBeGreaterThan(
        parse(changed(first, 'TFIN-FUND-ETH-2026-0901')!.after).validation.evidence.technical[1]
          .block_number,
      );
    },
    TEST_MS,
  );

  test(
    'a contract with no code is recorded and demotes its record; one whose calls revert, or whose address fails its checksum, is reported and gets no evidence',
    async () => {
      writeAsset('TFIN-FUND-ETH-2026-0902', NO_CODE);
      writeAsset('TFIN-FUND-ETH-2026-0903', notAToken);
      // The token's EIP-55 address with one letter's case flipped: a typo the checksum catches.
      const typo = getAddress(token).replace(/[a-f]/, (c) => c.toUpperCase());
      writeAsset('TFIN-FUND-ETH-2026-0904', typo);
      try {
        const result = await run({ RPC_URL_ETH: anvil.url });
        const noCode = parse(changed(result, 'TFIN-FUND-ETH-2026-0902')!.after);
        expect(noCode.validation.evidence.technical[1]).toMatchObject({
          method: 'rpc',
          code: false,
          supply: null,
        });
        expect(noCode.validation.level).toBe('unverified');
        expect(changed(result, 'TFIN-FUND-ETH-2026-0903')).toBeUndefined();
        const block = /^ETH: chain id 1, block (\d+)/.exec(result.report[0]!)![1];
        expect(result.report).toContain(
          `  asset TFIN-FUND-ETH-2026-0902 ETH ${NO_CODE}: no contract code at block ${block}`,
        );
        expect(result.report).toContainEqual(
          expect.stringMatching(
            /^ {2}TFIN-FUND-ETH-2026-0902: DEMOTED L1 → unverified: a ledger read contradicts the record: ETH no contract code at the address/,
          ),
        );
        expect(result.report).toContain(
          `  asset TFIN-FUND-ETH-2026-0903 ETH ${notAToken}: PROBLEM: name() failed at block ${block} (The contract function "name" reverted: execution reverted); nothing written`,
        );
        expect(result.report).toContain(
          `  asset TFIN-FUND-ETH-2026-0904 ETH ${typo}: PROBLEM: is not an EVM address (0x and 40 hex digits, with a valid EIP-55 checksum if mixed-case); nothing written`,
        );
        expect(changed(result, 'TFIN-FUND-ETH-2026-0904')).toBeUndefined();
      } finally {
        rmSync(path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0904.yaml'));
        rmSync(path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0902.yaml'));
        rmSync(path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0903.yaml'));
      }
    },
    TEST_MS,
  );

  test(
    'an endpoint of another chain is refused with the chain ids, and nothing is read',
    async () => {
      writeAsset('TFIN-FUND-POL-2026-0901', token, 'POL');
      try {
        await expect(run({ RPC_URL_ETH: anvil.url, RPC_URL_POL: anvil.url })).rejects.toThrow(
          `RPC_URL_POL (http://127.0.0.1:${anvil.port}): serves chain id 1, but POL is chain id 137\n` +
            '    expected: an endpoint of chain id 137; nothing is recorded from another chain',
        );
      } finally {
        rmSync(path.join(root, 'data/assets/TFIN-FUND-POL-2026-0901.yaml'));
      }
    },
    TEST_MS,
  );

  test(
    'an unreachable endpoint is named (without its path, which may hold a key) and its ledger is left as recorded',
    async () => {
      const port = await freePort();
      const result = await run({
        RPC_URL_ETH: `http://127.0.0.1:${port}/v3/secret-key`,
        RPC_TIMEOUT_MS: '5000',
      });
      expect(result.changes).toEqual([]);
      expect(result.report[0]).toBe(
        `ETH: NOT READ: RPC_URL_ETH (http://127.0.0.1:${port}/…): did not answer eth_chainId (HTTP request failed: fetch failed; timeout 5000 ms); recorded values kept`,
      );
      expect(result.report.join('\n')).not.toContain('secret-key');
      expect(result.report).toContain(`  asset TFIN-FUND-ETH-2026-0901 ETH ${token}`);
    },
    TEST_MS,
  );

  test(
    'an endpoint that accepts the connection but never answers times out',
    async () => {
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        const result = await run({
          RPC_URL_ETH: `http://127.0.0.1:${port}`,
          RPC_TIMEOUT_MS: '500',
        });
        expect(result.changes).toEqual([]);
        expect(result.report[0]).toBe(
          `ETH: NOT READ: RPC_URL_ETH (http://127.0.0.1:${port}): did not answer eth_chainId (The request took too long to respond: The request timed out; timeout 500 ms); recorded values kept`,
        );
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
    TEST_MS,
  );

  test(
    'without RPC_URL_<LEDGER> every entry is listed as not read and nothing changes',
    async () => {
      const result = await run({});
      expect(result.changes).toEqual([]);
      expect(result.report).toEqual([
        `not read, ETH: RPC_URL_ETH is not set: 1 contract(s): asset TFIN-FUND-ETH-2026-0901 ${token}`,
        'not read, SOL: not an EVM ledger (solana: RPC shape not read yet): 1 contract(s): asset TFIN-FUND-ETH-2026-0901 2HehXG149TXuVptQhbiWAWDjbbuCsXSAtLTB5wc2aajK',
        'no ledger was read: set RPC_URL_<LEDGER> (e.g. RPC_URL_ETH)',
      ]);
    },
    TEST_MS,
  );

  test(
    'npm run data:import -- onchain --write writes the evidence through the CLI',
    async () => {
      await mint(1n); // the chain moves on, so the evidence on disk is out of date
      const cli = path.join(import.meta.dirname, '../../scripts/data-import.ts');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [cli, 'onchain', '--write', '--root', root],
        { env: { ...process.env, RPC_URL_ETH: anvil.url } },
      );
      expect(stdout).toContain('wrote data/assets/TFIN-FUND-ETH-2026-0901.yaml');
      const written = parse(
        readFileSync(path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0901.yaml'), 'utf8'),
      );
      expect(written.validation.evidence.technical[1]).toMatchObject({
        method: 'rpc',
        chain_id: 1,
      });
    },
    TEST_MS,
  );
});

describe('data documents', () => {
  test('every asset and stablecoin file renders back byte for byte when unedited', () => {
    const repo = path.join(import.meta.dirname, '../..');
    for (const dir of ['data/assets', 'data/stablecoins']) {
      const docs = readDataDocs(repo, dir);
      expect(docs.length).toBe(
        readdirSync(path.join(repo, dir)).filter((n) => n.endsWith('.yaml')).length,
      );
      for (const file of docs) expect(renderDoc(file), file.path).toBe(file.text);
    }
  }, 180_000);

  test('a file that is not valid YAML is refused with its line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-docs-'));
    try {
      mkdirSync(path.join(dir, 'data/assets'), { recursive: true });
      writeFileSync(path.join(dir, 'data/assets/bad.yaml'), 'tfin: x\nname: [unclosed\n');
      expect(() => readDataDocs(dir, 'data/assets')).toThrow(
        /^data\/assets\/bad\.yaml, row \d+: is not valid YAML/,
      );
      expect(parseDocument('a: 1').errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
