// The rwa-sheet importer: on a small fixture (a fund candidate becomes a whole, valid, unverified
// record with no contract address; an ISIN lead reaches an existing record with its origin; a
// failing check digit, a stablecoin row and a programme issuer's token are reported or left out;
// a second run writes nothing; a file other than the captured one is refused), then over the
// captured sheet beside the clone (the project's records already match it).
/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML records */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { assetRecord } from '../../src/domain/asset.ts';
import { rwaSheetImporter, sheetImporter } from '../../src/importers/rwa-sheet/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { sharedData } from '../helpers/shared-data.ts';

const FIXTURES = path.resolve('test/fixtures/importers/rwa-sheet');
const INPUT = `${FIXTURES}/rwa-sheet.csv`;
const FIXTURE_SHEET = {
  repository: 'DefiLlama/defillama-server',
  path: 'defi/src/rwa/12Jan.csv',
  commit: '0123456789abcdef0123456789abcdef01234567',
  sha256: readFileInput(INPUT).sha256,
};
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-sheet-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (importer = sheetImporter(FIXTURE_SHEET), file = INPUT, at = root) =>
  importer.run({
    root: at,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-27',
    env: {},
  });

describe('rwa-sheet importer on a fixture', () => {
  test('a fund candidate becomes a whole, valid, unverified record without an address from the sheet', async () => {
    const result = await run();
    const created = result.changes
      .filter((c) => /TFIN-FUND-ETH-2026-\d{4}\.yaml$/.test(c.path))
      .map((c) => parse(c.after));
    // JAAA, and the made-up row whose ISIN fails: a record without that ISIN.
    expect(created.map((c) => [c.short_name, c.identifiers.isin])).toEqual([
      ['JAAA', null],
      ['JAAX', null],
    ]);
    const r = created[0];
    expect(assetRecord.safeParse(r).success).toBe(true);
    expect(r).toMatchObject({
      name: 'Janus Henderson Anemoy AAA CLO Fund',
      short_name: 'JAAA',
      tfic: 'FUND.BOND',
      validation: { level: 'unverified' },
    });
    expect(r.ledgers.map((l: any) => [l.ledger, l.contract_address])).toEqual([
      ['ETH', null],
      ['BAS', null],
      ['AVA', null],
      ['BNB', null],
    ]);
    expect(r.ledgers[0].contract_address_null_reason).toMatch(/aggregator sheet alone is not used/);
    expect(r.validation.basis).toMatch(
      /^The product, its issuer and ledgers come from DefiLlama's RWA sheet alone/,
    );
  });

  test('an ISIN lead reaches the existing record with its origin; failures and non-assets are reported', async () => {
    const result = await run();
    const tbill = parse(
      result.changes.find((c) => c.path.endsWith('TFIN-FUND-ETH-2023-0002.yaml'))!.after,
    );
    expect(tbill.identifiers).toMatchObject({
      isin: 'US0378331005',
      isin_origin: {
        source: 'defillama-rwa-sheet',
        repository: 'DefiLlama/defillama-server',
        path: 'defi/src/rwa/12Jan.csv',
        line: 5,
        commit: FIXTURE_SHEET.commit,
      },
    });
    expect(result.report).toEqual(
      expect.arrayContaining([
        'row 6 (RWA ID 9001, JAAX): ISIN US0378331006 fails its ISO 6166 check digit; not used',
        expect.stringMatching(
          /^row 3 \(RWA ID 401, TBLLx\): its issuer's tokens are series of TFIN-STRU-SOL-2025-0001/,
        ),
      ]),
    );
    expect(result.changes.some((c) => c.after.includes('Circle Euro Coin'))).toBe(false);
  });

  test('a second run writes nothing', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    expect(plan(root, (await run()).changes)).toEqual([]);
  });

  test('a file other than the captured sheet is refused with a pinned message', async () => {
    await expect(run(rwaSheetImporter)).rejects.toThrow(
      /rwa-sheet\.csv: is not the captured 12Jan\.csv \(SHA-256 [0-9a-f]{12}…\), so the commit its rows come from is unknown\n {4}expected: the sheet as captured at DefiLlama\/defillama-server c0d2c745bd2e/,
    );
  });
});

const data = sharedData('defillama-rwa/rwa-sheet-12jan.csv');
describe.skipIf(!data.present)(`rwa-sheet importer on the captured sheet (${data.reason})`, () => {
  test("the project's records already match the sheet: re-running writes nothing", async () => {
    const project = path.resolve('.');
    const result = await run(
      rwaSheetImporter,
      data.file('defillama-rwa/rwa-sheet-12jan.csv'),
      project,
    );
    expect(plan(project, result.changes).map((c) => c.path)).toEqual([]);
  });
});
