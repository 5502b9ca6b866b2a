// The level follows the evidence, on REAL local nodes (anvil, fixed bytecode from contracts.json;
// the EIP-1967 proxy's runtime is assembled below): one run promotes every record whose contract
// reads as stated and demotes every one that disagrees (another symbol, other decimals, no code),
// keeping the previous read in history; a proxy is read through; a node of another chain or one
// that dies mid-run changes nothing; a read past its maximum age stops counting.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { onchainImporter } from '../../src/importers/onchain/index.ts';
import { levelsImporter } from '../../src/importers/levels/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { EIP1967_IMPLEMENTATION_SLOT } from '../../src/importers/onchain/token.ts';
import { rpcProxy, startChain, type TestChain } from '../fixtures/importers/onchain/nodes.ts';
import { dataRoot, genesisOn, readAsset, stopNodes, writeAsset } from '../helpers/data-roots.ts';

const START_MS = 90_000;
const TEST_MS = 60_000;
const GENESIS = '2026-11-20';
const DATASET_DATE = '2026-11-27';

/**
 * A minimal EIP-1967 proxy: copies the call data, DELEGATECALLs the address in the implementation
 * slot, and returns (or reverts with) what it answered.
 * CALLDATASIZE 0 0 CALLDATACOPY; 0 0 CALLDATASIZE 0 SLOAD(slot) GAS DELEGATECALL;
 * RETURNDATASIZE 0 0 RETURNDATACOPY; JUMPI(ok); REVERT(0, RETURNDATASIZE); ok: RETURN(0, RETURNDATASIZE)
 */
const PROXY_RUNTIME: Hex = `0x366000600037600060003660007f${EIP1967_IMPLEMENTATION_SLOT.slice(2)}545af43d600060003e603e573d6000fd5b3d6000f3`;

let root: string;
let eth: TestChain;
const tokens: Record<string, Address> = {};

function writeRecord(tfin: string, address: string, level: string, symbol = 'TTT') {
  writeAsset(root, {
    tfin,
    name: 'Test fund',
    shortName: symbol,
    ledgers: [{ ledger: 'ETH', address, tokenStandard: 'ERC-20' }],
    level,
    basis: 'Written by the test.',
  });
}

const read = (tfin: string) => readAsset(root, tfin);

async function onchain(env: Record<string, string>) {
  const result = await onchainImporter.run({
    root,
    input: null,
    previous: null,
    today: DATASET_DATE,
    env,
  });
  applyChanges(root, plan(root, result.changes));
  return result;
}

/** A proxy at `at` whose implementation is `implementation`, holding a token's first storage slots. */
async function putProxy(at: Address, implementation: Address) {
  await eth.rpc('anvil_setCode', [at, PROXY_RUNTIME]);
  for (let slot = 0; slot < 4; slot++) {
    const key = `0x${slot.toString(16).padStart(64, '0')}`;
    await eth.rpc('anvil_setStorageAt', [
      at,
      key,
      await eth.rpc('eth_getStorageAt', [implementation, key, 'latest']),
    ]);
  }
  await eth.rpc('anvil_setStorageAt', [
    at,
    EIP1967_IMPLEMENTATION_SLOT,
    `0x${implementation.slice(2).toLowerCase().padStart(64, '0')}`,
  ]);
  await eth.rpc('evm_mine', []);
}

const AT = {
  agrees: '0x00000000000000000000000000000000000a1001',
  symbol: '0x00000000000000000000000000000000000a1002',
  decimals: '0x00000000000000000000000000000000000a1003',
  code: '0x00000000000000000000000000000000000a1004',
  proxy: '0x00000000000000000000000000000000000a1005',
  later: '0x00000000000000000000000000000000000a1006',
  unstated: '0x00000000000000000000000000000000000a1007',
} as const satisfies Record<string, Address>;

beforeAll(async () => {
  root = dataRoot('tai-levels-', { datasetDate: DATASET_DATE });
  eth = await startChain(1, {
    multicall3: true,
    startMs: START_MS,
    genesisTime: genesisOn(GENESIS),
  });
  tokens['TTT6'] = await eth.deployToken('Test Treasury Token', 'TTT', 6, 1_000_000n * 10n ** 6n);
  tokens['OTHER'] = await eth.deployToken('Other Token', 'OTH', 6, 5n * 10n ** 6n);
  tokens['TTT18'] = await eth.deployToken('Test Treasury Token', 'TTT', 18, 10n ** 18n);
  for (const at of [AT.agrees, AT.symbol, AT.decimals, AT.code, AT.later, AT.unstated])
    await eth.cloneTo(tokens['TTT6']!, at);
  await putProxy(AT.proxy, tokens['TTT6']!);
  writeRecord('TFIN-FUND-ETH-2026-0951', AT.agrees, 'unverified');
  writeRecord('TFIN-FUND-ETH-2026-0952', AT.symbol, 'unverified');
  writeRecord('TFIN-FUND-ETH-2026-0953', AT.decimals, 'unverified');
  writeRecord('TFIN-FUND-ETH-2026-0954', AT.code, 'unverified');
  writeRecord('TFIN-FUND-ETH-2026-0955', AT.proxy, 'unverified');
  // States a ticker the token does not have: its read confirms nothing and promotes nothing.
  writeRecord('TFIN-FUND-ETH-2026-0957', AT.unstated, 'unverified', 'XYZ');
}, START_MS);

afterAll(async () => {
  await stopNodes([eth]);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the level follows the ledger read', () => {
  test(
    'a read that agrees promotes (through a proxy too) and records the decimals; a read of another ticker than the one stated promotes nothing',
    async () => {
      const result = await onchain({ RPC_URL_ETH: eth.url });
      for (const tfin of ['0951', '0952', '0953', '0954', '0955'])
        expect(read(`TFIN-FUND-ETH-2026-${tfin}`).validation.level, tfin).toBe('L1');
      expect(read('TFIN-FUND-ETH-2026-0951').ledgers[0].decimals).toBe(6);
      expect(read('TFIN-FUND-ETH-2026-0951').validation.basis).toMatch(
        /^L1 by the methodology's rule: the contract is confirmed on ETH by a read of the ledger \(chain 1, block \d+\)/,
      );
      const proxied = read('TFIN-FUND-ETH-2026-0955').validation.evidence.technical[0];
      expect(proxied).toMatchObject({ symbol: 'TTT', decimals: 6, code: true });
      expect(proxied.implementation.toLowerCase()).toBe(tokens['TTT6']!.toLowerCase());
      expect(result.report).toContainEqual(
        expect.stringMatching(
          /^ {2}TFIN-FUND-ETH-2026-0951: PROMOTED unverified → L1: ETH symbol "TTT" and 6 decimals read at block \d+ of chain 1, as stated$/,
        ),
      );
      // The ticker stated is XYZ: the read is recorded, and contradicts the record.
      const unstated = read('TFIN-FUND-ETH-2026-0957');
      expect(unstated.validation.level).toBe('unverified');
      expect(unstated.validation.evidence.technical[0]).toMatchObject({ symbol: 'TTT' });
    },
    TEST_MS,
  );

  test(
    'in one run: another symbol, other decimals and no code each demote, previous reads kept in history; an agreeing record is promoted',
    async () => {
      await eth.cloneTo(tokens['OTHER']!, AT.symbol);
      await eth.cloneTo(tokens['TTT18']!, AT.decimals);
      await eth.rpc('anvil_setCode', [AT.code, '0x']);
      await eth.cloneTo(tokens['TTT6']!, AT.later);
      writeRecord('TFIN-FUND-ETH-2026-0956', AT.later, 'unverified');
      const result = await onchain({ RPC_URL_ETH: eth.url });
      expect(read('TFIN-FUND-ETH-2026-0956').validation.level).toBe('L1');
      expect(read('TFIN-FUND-ETH-2026-0951').validation.level).toBe('L1');
      expect(read('TFIN-FUND-ETH-2026-0955').validation.level).toBe('L1');
      const reasons = {
        '0952': /symbol "OTH" read at block \d+ of chain 1; the record states "TTT"/,
        '0953': /18 decimals read at block \d+ of chain 1; the record states 6/,
        '0954': /no contract code at the address at block \d+ of chain 1/,
      };
      for (const [tfin, reason] of Object.entries(reasons)) {
        const record = read(`TFIN-FUND-ETH-2026-${tfin}`);
        expect(record.validation.level, tfin).toBe('unverified');
        expect(record.validation.basis, tfin).toMatch(reason);
        // The read the record was L1 on is kept for review.
        expect(record.validation.evidence.history, tfin).toEqual([
          expect.objectContaining({ method: 'rpc', symbol: 'TTT', decimals: 6, code: true }),
        ]);
        expect(result.report, tfin).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^ {2}TFIN-FUND-ETH-2026-${tfin}: DEMOTED L1 → unverified: a ledger read contradicts the record: ETH ${reason.source}`,
            ),
          ),
        );
      }
      expect(result.report).toContain('validation levels changed: 4 record(s)');
    },
    TEST_MS,
  );

  test(
    'a node of another chain id, and a node that dies mid-run, change nothing',
    async () => {
      const before = readFileSync(
        path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0951.yaml'),
        'utf8',
      );
      const other = await startChain(5, { multicall3: false, startMs: START_MS });
      try {
        await expect(onchain({ RPC_URL_ETH: other.url })).rejects.toThrow(
          /serves chain id 5, but ETH is chain id 1/,
        );
      } finally {
        await other.anvil.stop();
      }
      const dying = await startChain(1, { multicall3: false, startMs: START_MS });
      const proxy = await rpcProxy(dying.url, {
        killAfter: 'eth_getBlockByNumber',
        kill: () => dying.anvil.stop(),
      });
      try {
        const result = await onchain({ RPC_URL_ETH: proxy.url, RPC_TIMEOUT_MS: '3000' });
        expect(dying.anvil.stopped()).toBe(true);
        expect(result.changes).toEqual([]);
        expect(result.report.filter((l) => / (PROMOTED|DEMOTED) /.test(l))).toEqual([]);
        expect(result.report).toContainEqual(
          expect.stringMatching(/: PROBLEM: eth_getCode failed/),
        );
      } finally {
        await proxy.close();
        await dying.anvil.stop();
      }
      expect(
        readFileSync(path.join(root, 'data/assets/TFIN-FUND-ETH-2026-0951.yaml'), 'utf8'),
      ).toBe(before);
    },
    TEST_MS * 3,
  );

  test(
    'a read past its maximum age stops counting: the levels importer demotes its record',
    async () => {
      const maxAge = parse(readFileSync('data/codes/source-policy.yaml', 'utf8'))
        .evidence_max_age_days.rpc;
      const asOf = read('TFIN-FUND-ETH-2026-0951').validation.evidence.technical[0].as_of;
      const run = (date: string) => {
        writeFileSync(path.join(root, 'data/release.yaml'), `dataset_date: "${date}"\n`);
        return levelsImporter.run({ root, input: null, previous: null, today: date, env: {} });
      };
      const day = (n: number) =>
        new Date(Date.parse(asOf) + n * 86_400_000).toISOString().slice(0, 10);
      expect((await run(day(maxAge))).changes).toEqual([]);
      const expired = await run(day(maxAge + 1));
      const demoted = expired.changes.map((c) => c.path).sort();
      expect(demoted).toEqual(
        ['0951', '0955', '0956'].map((n) => `data/assets/TFIN-FUND-ETH-2026-${n}.yaml`),
      );
      expect(expired.report).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^ {2}TFIN-FUND-ETH-2026-0951: DEMOTED L1 → unverified: its technical evidence is past its maximum age \\(ETH: rpc of ${asOf} is ${maxAge + 1} days old \\(counts for ${maxAge}\\)\\)`,
          ),
        ),
      );
    },
    TEST_MS,
  );
});
