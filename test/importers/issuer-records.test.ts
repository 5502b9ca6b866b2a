// The issuer-records importer on small fixtures (test/fixtures/importers/issuer-records): an
// issuer's own record of its contracts becomes issuer_record evidence on (ledger, address) only,
// a record gains the issuer's other deployments of its token, a disagreeing address is reported
// and not written, the level follows, and a second run changes nothing.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { issuerRecordsImporter } from '../../src/importers/issuer-records/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { technicalEvidence } from '../../src/domain/asset.ts';
import { dataRoot, readAsset, writeAsset } from '../helpers/data-roots.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/importers/issuer-records');
let root: string;

function writeRecord(tfin: string, ledgers: [string, string][], shortName = 'null') {
  writeAsset(root, {
    tfin,
    name: 'Test record',
    shortName,
    ledgers: ledgers.map(([ledger, address]) => ({ ledger, address, tokenStandard: 'null' })),
    level: 'unverified',
    basis: 'The addresses come from an aggregator alone.',
  });
}

const read = (tfin: string) => readAsset(root, tfin);

async function run(file: string, write = true) {
  const result = await issuerRecordsImporter.run({
    root,
    input: readFileInput(path.join(FIXTURES, file)),
    previous: null,
    today: '2026-12-07',
    env: {},
  });
  if (write) applyChanges(root, plan(root, result.changes));
  return result;
}

beforeAll(() => {
  root = dataRoot('tai-issuer-records-', { datasetDate: '2026-11-27' });
  writeRecord('TFIN-STRU-ARB-2026-0901', [['ARB', '0x1111111111111111111111111111111111111111']]);
  writeRecord('TFIN-STRU-ETH-2026-0902', [
    ['ETH', '0x2222222222222222222222222222222222222222'],
    ['BNB', '0x9999999999999999999999999999999999999999'],
  ]);
  writeRecord('TFIN-STRU-ETH-2026-0903', [['ETH', '0x4444444444444444444444444444444444444444']]);
  writeRecord('TFIN-STRU-OAS-2026-0904', [['OAS', '0x1111111111111111111111111111111111111111']]);
  writeRecord(
    'TFIN-FUND-ETH-2026-0905',
    [['ETH', '0x6666666666666666666666666666666666666666']],
    'GGG',
  );
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('issuer-records importer', () => {
  test('a match on (ledger, address) becomes evidence, the token’s other deployments are added, and the record is L1', async () => {
    const result = await run('token-list.csv');
    const a = read('TFIN-STRU-ARB-2026-0901');
    expect(a.ledgers).toEqual([
      expect.objectContaining({ ledger: 'ARB', symbol: 'AAAx', decimals: 18 }),
      {
        ledger: 'ETH',
        token_standard: null,
        contract_address: '0x1111111111111111111111111111111111111111',
        contract_address_null_reason: null,
        symbol: 'AAAx',
        decimals: 18,
      },
    ]);
    const [arb] = a.validation.evidence.technical;
    expect(technicalEvidence.parse(arb)).toEqual({
      ledger: 'ARB',
      contract_address: '0x1111111111111111111111111111111111111111',
      method: 'issuer_record',
      source: null,
      as_of: '2026-04-28',
      symbol: 'AAAx',
      decimals: 18,
      record: {
        publisher: 'xStocks (Backed Assets (JE) Limited)',
        title:
          'Token contracts as published by xStocks (Backed Assets (JE) Limited) (tokenlist.json in backed-fi/xstocks-tokenlist)',
        url: 'https://github.com/backed-fi/xstocks-tokenlist/blob/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/tokenlist.json',
        repository: 'backed-fi/xstocks-tokenlist',
        path: 'tokenlist.json',
        commit: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      },
    });
    expect(a.validation.level).toBe('L1');
    expect(a.validation.basis).toMatch(
      /^L1 by the methodology's rule: the contract is confirmed on ARB, ETH by the issuer's own record \(xStocks \(Backed Assets \(JE\) Limited\): backed-fi\/xstocks-tokenlist\)/,
    );
    expect(result.report).toContain(
      '  TFIN-STRU-ARB-2026-0901 ETH 0x1111111111111111111111111111111111111111: added, as the issuer lists AAAx there',
    );
  });

  test('an address that disagrees with the issuer’s for the same token and ledger is reported, not written', async () => {
    const b = read('TFIN-STRU-ETH-2026-0902');
    expect(b.ledgers[1]).toEqual({
      ledger: 'BNB',
      token_standard: null,
      contract_address: '0x9999999999999999999999999999999999999999',
      contract_address_null_reason: null,
    });
    expect(b.validation.evidence.technical.map((e: { ledger: string }) => e.ledger)).toEqual([
      'ETH',
    ]);
    expect(b.validation.level).toBe('L1');
    const again = await run('token-list.csv', false);
    expect(again.report).toContain(
      '  TFIN-STRU-ETH-2026-0902 BNB 0x9999999999999999999999999999999999999999: DISAGREES: the issuer lists BBBx on BNB at 0x3333333333333333333333333333333333333333: not written',
    );
  });

  test('the same address on another ledger is no match; a row the issuer no longer lists, or on a chain no ledger code has, is not used', async () => {
    const again = await run('token-list.csv', false);
    expect(read('TFIN-STRU-OAS-2026-0904').validation.level).toBe('unverified');
    expect(again.report).toContain(
      '  TFIN-STRU-OAS-2026-0904 OAS 0x1111111111111111111111111111111111111111: the issuer lists this address on ETH, ARB only: not a match (matched on ledger and address)',
    );
    expect(read('TFIN-STRU-ETH-2026-0903').validation.level).toBe('unverified');
    expect(again.report).toContain("  1 row(s) no longer in the issuer's latest record: not used");
    expect(again.report).toContain(
      '  row 7 AAAx 0x1111111111111111111111111111111111111111: not matched: chain id 999999991 (examplechain) is no ledger of data/codes/ledgers.yaml',
    );
  });

  test('a second run on the same file changes nothing', async () => {
    expect((await run('token-list.csv', false)).changes).toEqual([]);
  });

  test('a transcribed page: evidence with its URL; a row dated after the dataset date waits; one issuer’s ticker is not another’s', async () => {
    const result = await run('transcribed.csv');
    const g = read('TFIN-FUND-ETH-2026-0905');
    expect(g.validation.level).toBe('L1');
    expect(g.validation.evidence.technical[0]).toMatchObject({
      as_of: '2026-05-01',
      record: {
        publisher: 'Test Issuer',
        title: 'Gamma contract addresses',
        url: 'https://docs.example-issuer.com/gamma',
      },
    });
    expect(g.ledgers.map((l: { ledger: string }) => l.ledger)).toEqual(['ETH']);
    expect(result.report).toContain(
      '  1 row(s) dated after the dataset date 2026-11-27: used once a refresh raises it to their date',
    );
    // Other Issuer's AAAx is not xStocks' AAAx: record 0901 keeps its ETH address, reported nothing.
    expect(read('TFIN-STRU-ARB-2026-0901').ledgers[1].contract_address).toBe(
      '0x1111111111111111111111111111111111111111',
    );
    expect(result.report.filter((l) => l.includes('0901'))).toEqual([]);
  });
});
