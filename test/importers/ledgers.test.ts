// The ledger code table as importers read it (src/importers/shared/ledgers.ts): a source's chain
// key → ledger code, and the chain ids the on-ledger importer checks endpoints against, read from
// the data tree it runs on. Over the real table, every DefiLlama chain key of the captured
// deployments has a code.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerForChain, readLedgers } from '../../src/importers/shared/ledgers.ts';
import { ImportError } from '../../src/importers/shared/errors.ts';
import { planReads } from '../../src/importers/onchain/targets.ts';
import { readDataDocs } from '../../src/importers/shared/data-docs.ts';
import { sharedData } from '../helpers/shared-data.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function rootWithLedgers(text: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tai-ledgers-'));
  roots.push(root);
  mkdirSync(path.join(root, 'data/codes'), { recursive: true });
  writeFileSync(path.join(root, 'data/codes/ledgers.yaml'), text);
  return root;
}

describe('ledgerForChain over the project table', () => {
  it('gives the code for a DefiLlama chain key, synonyms included', () => {
    expect(ledgerForChain('defillama', 'avax')).toBe('AVA');
    expect(ledgerForChain('defillama', 'avalanche')).toBe('AVA');
    expect(ledgerForChain('defillama', 'ethereum')).toBe('ETH');
    expect(ledgerForChain('defillama', 'plume_mainnet')).toBe('PLM');
    expect(ledgerForChain('defillama', 'xdai')).toBe('GNO');
  });

  it('is undefined for an unknown key or source', () => {
    expect(ledgerForChain('defillama', 'no-such-chain')).toBeUndefined();
    expect(ledgerForChain('coingecko', 'avax')).toBeUndefined();
    // A code is not a key: keys are the source's own names.
    expect(ledgerForChain('defillama', 'AVA')).toBeUndefined();
  });

  it('keeps the chain ids the on-ledger importer had for the original EVM codes', () => {
    const ledgers = readLedgers();
    const before = { ETH: 1, POL: 137, ARB: 42161, BAS: 8453, OPT: 10, AVA: 43114, BNB: 56 };
    const more = { ETL: 42793, PLM: 98866, CLO: 42220 };
    for (const [code, id] of Object.entries({ ...before, ...more }))
      expect([code, ledgers.evmChainId(code)]).toEqual([code, id]);
    // Not EVM, or EVM without a confirmed id: nothing for an endpoint to be checked against.
    expect(ledgers.evmChainId('SOL')).toBeUndefined();
    expect(ledgers.entry('REI')).toMatchObject({ vm: 'evm', chain_id: null });
    expect(ledgers.evmChainId('REI')).toBeUndefined();
    expect(ledgers.evmChainId('ZZZ')).toBeUndefined();
  });
});

describe('readLedgers on a data tree', () => {
  const table = (extra = '') =>
    `ledgers:\n  - { code: ETH, name: Ethereum, type: public_permissionless, vm: evm, chain_id: 1, aliases: { defillama: [ethereum] } }\n${extra}`;

  it('reads the tree it is given, and again when the file changes', () => {
    const root = rootWithLedgers(table());
    expect(ledgerForChain('defillama', 'ethereum', root)).toBe('ETH');
    expect(ledgerForChain('defillama', 'gnosis', root)).toBeUndefined();
    writeFileSync(
      path.join(root, 'data/codes/ledgers.yaml'),
      table(
        '  - { code: GNO, name: Gnosis Chain, type: public_permissionless, vm: evm, chain_id: 100, aliases: { defillama: [xdai, gnosis] } }\n',
      ),
    );
    expect(ledgerForChain('defillama', 'gnosis', root)).toBe('GNO');
    expect(readLedgers(root).evmChainId('GNO')).toBe(100);
  });

  it('refuses a table that breaks its schema, naming the file and the place', () => {
    const root = rootWithLedgers(
      table('  - { code: gno, name: Gnosis, type: public_permissionless }\n'),
    );
    expect(() => readLedgers(root)).toThrow(ImportError);
    expect(() => readLedgers(root)).toThrow(/^data\/codes\/ledgers\.yaml at ledgers\.1\.code: /);
  });

  it('refuses a missing table', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tai-ledgers-'));
    roots.push(root);
    expect(() => readLedgers(root)).toThrow('data/codes/ledgers.yaml: is missing');
  });
});

describe('the on-ledger plan reads only EVM ledgers with a confirmed chain id', () => {
  it('says why each other entry stays manual', () => {
    const root = rootWithLedgers(
      [
        'ledgers:',
        '  - { code: ETH, name: Ethereum, type: public_permissionless, vm: evm, chain_id: 1 }',
        '  - { code: REI, name: REI Network, type: public_permissionless, vm: evm, chain_id: null }',
        '  - { code: SOL, name: Solana, type: public_permissionless, vm: solana }',
        '',
      ].join('\n'),
    );
    mkdirSync(path.join(root, 'data/assets'));
    const ledgers = ['ETH', 'REI', 'SOL', 'XYZ']
      .map((l) => `  - { ledger: ${l}, contract_address: "0x${'1'.repeat(40)}" }`)
      .join('\n');
    writeFileSync(
      path.join(root, 'data/assets/TFIN-X.yaml'),
      `tfin: TFIN-X\nledgers:\n${ledgers}\n`,
    );
    const plan = planReads(
      { assets: readDataDocs(root, 'data/assets'), coins: [] },
      { RPC_URL_ETH: 'http://127.0.0.1:1', RPC_URL_REI: 'http://127.0.0.1:1' },
      readLedgers(root),
    );
    expect([...plan.byLedger.keys()]).toEqual(['ETH']);
    expect(plan.chainIds.get('ETH')).toBe(1);
    expect(plan.skipped.map((s) => `${s.ledger}: ${s.reason}`)).toEqual([
      'REI: no confirmed EIP-155 chain id in data/codes/ledgers.yaml',
      'SOL: not an EVM ledger (solana: RPC shape not read yet)',
      'XYZ: not in data/codes/ledgers.yaml',
    ]);
  });
});

const captured = sharedData(
  'defillama-rwa/adapter-contracts.csv',
  'defillama-stablecoins/contracts.csv',
);

describe.skipIf(!captured.present)(`captured DefiLlama chain keys (${captured.reason})`, () => {
  const rows = (file: string) =>
    parse(readFileSync(captured.file(file)), { columns: true }) as Record<string, string>[];

  it('every chain of a token contract has a ledger code', () => {
    const keys = new Set([
      ...rows('defillama-rwa/adapter-contracts.csv').map((r) => r['chain']!),
      ...rows('defillama-stablecoins/contracts.csv')
        .filter((r) => r['kind'] === 'issued' || r['kind']!.startsWith('bridgedFrom'))
        .map((r) => r['chain']!),
    ]);
    expect(keys.size).toBeGreaterThanOrEqual(158);
    expect([...keys].filter((k) => ledgerForChain('defillama', k) === undefined)).toEqual([]);
  });

  it('a chain whose captured contracts are all EVM addresses is an EVM ledger', () => {
    // Where every address is 0x + 40 hex digits the chain reads as EVM; a table entry saying
    // otherwise would leave those contracts unread.
    const formats = new Map<string, Set<string>>();
    for (const r of [
      ...rows('defillama-rwa/adapter-contracts.csv'),
      ...rows('defillama-stablecoins/contracts.csv').filter(
        (r) => r['kind'] === 'issued' || r['kind']!.startsWith('bridgedFrom'),
      ),
    ])
      formats.set(r['chain']!, (formats.get(r['chain']!) ?? new Set()).add(r['address_format']!));
    const ledgers = readLedgers();
    const offEvm = [...formats]
      .filter(([, f]) => f.size === 1 && f.has('evm'))
      .map(([key]) => ledgerForChain('defillama', key)!)
      .filter((code) => ledgers.entry(code)?.vm !== 'evm');
    expect(offEvm).toEqual([]);
  });
});
