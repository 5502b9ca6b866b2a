// The coins importer: on small fixtures (new records made whole and valid, deployments from token
// rows only with their origin, chains without a code reported, status from the list, an editor's
// values kept and reported, nothing written twice, pinned messages for damaged input), then over
// the captured files beside the clone (the project's own records already match them).
/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML records */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { stablecoinRecord } from '../../src/domain/market.ts';
import { coinsImporter } from '../../src/importers/coins/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { sharedData } from '../helpers/shared-data.ts';

const FIXTURES = path.resolve('test/fixtures/importers/coins');
let root: string;
let inputDir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-coins-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
  inputDir = mkdtempSync(path.join(tmpdir(), 'tai-coins-in-'));
  for (const f of ['coins.csv', 'contracts.csv'])
    cpSync(`${FIXTURES}/${f}`, path.join(inputDir, f));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(inputDir, { recursive: true, force: true });
});

const run = (at = root, file = path.join(inputDir, 'coins.csv')) =>
  coinsImporter.run({
    root: at,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-22',
    env: {},
  });
const written = async () => {
  const result = await run();
  return {
    result,
    file: (id: string) => {
      const c = result.changes.find((x) => x.path === `data/stablecoins/${id}.yaml`);
      return c ? parse(c.after) : undefined;
    },
  };
};

describe('coins importer on fixtures', () => {
  test('makes each new coin whole and valid: status, deployments from token rows, white paper, DTI and LEI with origin', async () => {
    const { file } = await written();
    const usdt = file('usdt');
    expect(stablecoinRecord.safeParse(usdt).success).toBe(true);
    expect(usdt.status).toMatchObject({ value: 'live', source: 'defillama-stablecoins-list' });
    // issued on Ethereum and TRON; the wallet row (unreleased) is not a deployment.
    expect(usdt.deployments.map((d: any) => [d.ledger, d.kind, d.contract_address])).toEqual([
      ['ETH', 'issued', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
      ['TRX', 'issued', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ]);
    expect(usdt.deployments[0].origin).toEqual({
      source: 'defillama-stablecoin-contracts',
      repository: 'DefiLlama/peggedassets-server',
      path: expect.any(String),
      line: expect.any(Number),
      commit: '60cfca169fed2b9769d5dd962b453095952e192b',
    });
    expect(usdt.ledgers).toEqual(['ETH', 'TRX']);
    expect(usdt.circulating_supply).toEqual({
      value: null,
      value_null_reason: expect.stringMatching(/carries no supply figure/),
      as_of: null,
      source: null,
    });

    const euroe = file('euroe');
    expect(stablecoinRecord.safeParse(euroe).success).toBe(true);
    // Its contracts sit under an empty gecko_id: matched by symbol and name.
    expect(euroe.deployments.map((d: any) => d.ledger)).toEqual(['ETH', 'POL']);
    expect(euroe.issuer).toMatchObject({
      lei: '743700KYSSTKZYGEUF50',
      lei_origin: { source: 'esma-emt-register', path: 'EMTWP.csv' },
      jurisdiction: 'FI',
    });
    expect(euroe.mica).toMatchObject({
      classification: 'emt',
      white_paper: { url: 'https://www.membrane.fi/whitepapers/EUROe.html' },
      authorisation: { status: 'authorised', home_member_state: 'FI' },
    });
  });

  test('a coin the list marks dead is written with its status, date and source', async () => {
    const { file } = await written();
    expect(file('eurt').status).toMatchObject({
      value: 'inactive',
      since: '2025-12-15',
      source: 'defillama-stablecoins-list',
    });
  });

  test("keeps an editor's differing values and reports them; fills what the record lacks", async () => {
    const { result, file } = await written();
    const eurc = file('eurc');
    expect(eurc.dti).toBe('FJM594L0V');
    expect(eurc.issuer.lei).toBe('969500OYUDADGZKCR583');
    expect(eurc.deployments).toContainEqual({
      ledger: 'ETH',
      kind: 'issued',
      contract_address: '0x1111111111111111111111111111111111111111',
    });
    expect(eurc.ledger_dtis.map((d: any) => d.dti)).toContain('FJM594L0V');
    expect(result.report).toEqual(
      expect.arrayContaining([
        'data/stablecoins/eurc.yaml: editor value kept: dti is "FJM594L0V"; the source says "13XTMPZT3"',
        'data/stablecoins/eurc.yaml: editor value kept: deployment ETH/issued is 0x1111111111111111111111111111111111111111; the source says 0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c',
        '  eurc: 1 contract row(s) on chains without a ledger code: base',
      ]),
    );
    // The editor's comment survives.
    expect(result.changes.find((c) => c.path.endsWith('eurc.yaml'))!.after).toMatch(
      /^# An editor's record/,
    );
  });

  test('re-running on the same input writes nothing, and no record is removed', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    expect(plan(root, (await run()).changes)).toEqual([]);
    // A coin the input no longer lists keeps its record.
    writeFileSync(
      path.join(inputDir, 'coins.csv'),
      readFileSync(path.join(inputDir, 'coins.csv'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('49,'))
        .join('\n'),
    );
    const again = await run();
    // The other records change only where they cite the new file's digest.
    expect(again.changes.map((c) => c.path)).not.toContain('data/stablecoins/eurt.yaml');
    expect(again.report).toContain('data/stablecoins/eurt.yaml: in neither input; left as it is');
  });

  test('damaged input: a missing column and a bad peg type are named with file, row and column', async () => {
    const coins = path.join(inputDir, 'coins.csv');
    const text = readFileSync(coins, 'utf8');
    writeFileSync(coins, text.replace('pegMechanism', 'mechanism'));
    await expect(run()).rejects.toThrow(
      `${coins}, row 1, column pegMechanism: has no column "pegMechanism"`,
    );
    writeFileSync(coins, text.replace(',peggedEUR,', ',EUR,'));
    await expect(run()).rejects.toThrow(/row 3, column pegType: "EUR" is not a peg type/);
  });
});

const data = sharedData('defillama-stablecoins/coins.csv', 'defillama-stablecoins/contracts.csv');

describe.skipIf(!data.present)(`coins importer on the captured files (${data.reason})`, () => {
  test('covers every EUR coin of the list, the named USD coins and white papers; the records already match', async () => {
    const list = parse(readFileSync('data/codes/stablecoin-universe.yaml', 'utf8'));
    const result = await run(path.resolve('.'), data.file('defillama-stablecoins/coins.csv'));
    expect(plan(path.resolve('.'), result.changes)).toEqual([]);
    const eurIds = readFileSync(data.file('defillama-stablecoins/coins.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(',peggedEUR,'))
      .map((l) => l.split(',')[0]);
    const records = result.report.at(-1)!;
    expect(records).toMatch(/^(\d+) coins covered/);
    const ids = new Set(
      (await import('node:fs'))
        .readdirSync('data/stablecoins')
        .map((f) => parse(readFileSync(`data/stablecoins/${f}`, 'utf8')))
        .map((r) => r.aggregator_ids?.defillama),
    );
    for (const id of eurIds) expect(ids.has(id), `DefiLlama id ${id}`).toBe(true);
    for (const u of list.largest_usd) expect(ids.has(u.defillama), u.symbol).toBe(true);
    for (const w of list.white_papers) {
      const r = parse(readFileSync(`data/stablecoins/${w.coin}.yaml`, 'utf8'));
      expect(r.mica.white_paper?.source, w.coin).toBe('esma-emt-register');
    }
    expect(result.report.filter((l) => l.includes('not mapped to a coin'))).toEqual([]);
  });
});
