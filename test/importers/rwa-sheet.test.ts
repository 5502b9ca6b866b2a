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
import { readRegistryText } from '../../src/importers/rwa-sheet/registry-text.ts';
import { mergeFlags } from '../../src/importers/rwa-sheet/facts.ts';
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

  test("the row's flags are access facts with their row, and state the factors they speak of by rule", async () => {
    const result = await run();
    const r = parse(
      result.changes.find((c) => /TFIN-FUND-ETH-2026-\d{4}\.yaml$/.test(c.path))!.after,
    );
    expect(assetRecord.safeParse(r).success).toBe(true);
    expect(r.access).toEqual({
      access_model: 'permissioned',
      redeemable: true,
      exchange_listed: false,
      kyc_to_mint_or_redeem: true,
      allowlist_to_transfer_or_hold: true,
      transferable: true,
      self_custody: true,
      attestations: true,
      origin: {
        source: 'defillama-rwa-sheet',
        repository: 'DefiLlama/defillama-server',
        path: 'defi/src/rwa/12Jan.csv',
        line: 2,
        commit: FIXTURE_SHEET.commit,
      },
    });
    // Allowlisted holders on public ledgers: stated, by rule; redemption and listing stay unknown.
    expect(r.risk_factors.smart_contract.ledger_exposure).toBe('public_permissionless_allowlisted');
    expect(r.risk_factor_notes.smart_contract.ledger_exposure).toEqual({
      rule: 'aggregator-flags',
    });
    expect(r.risk_factors.liquidity).toEqual({
      redemption: 'unknown',
      secondary_market: 'unknown',
    });
    expect(r.risk_factor_notes.liquidity.redemption.reason).toMatch(
      /marks the token as redeemable with its issuer; no source states how often/,
    );
    expect(r.risk_factor_notes.liquidity.secondary_market.reason).toMatch(
      /as not listed on a centralised exchange/,
    );
  });

  test("the registry text gives the issuer's domicile, register number and regulator with the row; an editor's domicile stays", async () => {
    const result = await run();
    const r = parse(
      result.changes.find((c) => /TFIN-FUND-ETH-2026-\d{4}\.yaml$/.test(c.path))!.after,
    );
    expect(r.issuer).toMatchObject({
      jurisdiction: 'VG',
      jurisdiction_null_reason: null,
      jurisdiction_origin: { source: 'defillama-rwa-sheet', line: 2 },
      registry: {
        legal_name: 'Anemoy Capital SPC Limited',
        register_number: 'company no. 2130465',
        regulator: 'BVI Financial Services Commission',
        origin: { source: 'defillama-rwa-sheet', line: 2 },
      },
    });
    const tbill = parse(
      result.changes.find((c) => c.path.endsWith('TFIN-FUND-ETH-2023-0002.yaml'))!.after,
    );
    expect(tbill.issuer.jurisdiction).toBe('VG');
    expect(tbill.issuer.jurisdiction_origin).toBeUndefined();
    // An editor's risk factors stay whatever the flags say.
    expect(tbill.risk_factors.liquidity).toEqual({
      redemption: 'daily',
      secondary_market: 'limited_otc',
    });
    expect(tbill.risk_factor_notes).toBeUndefined();
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

describe("the sheet's registry text and flags", () => {
  test('a domicile only where every place named lies in one country; governing law is not a place', () => {
    expect(
      readRegistryText('Ondo Global Markets (BVI) Limited issues notes governed by Swiss law.'),
    ).toMatchObject({ domicile: 'VG', countries: [] });
    expect(
      readRegistryText(
        'MOSS EARTH S.A. – Brazilian company; headquartered in Montevideo (Uruguay).',
      ),
    ).toMatchObject({ domicile: null, countries: ['BR', 'UY'] });
    expect(
      readRegistryText('A fund investing in U.S. Treasuries, filed with the U.S. SEC.').domicile,
    ).toBeNull();
  });
  test('a legal name has its legal form and no lowercase words; a regulator only where the text says regulated by it', () => {
    expect(
      readRegistryText('Matrixdock brand operated by MATRIXDOCK PTE. LTD., a Singapore company')
        .legal_name,
    ).toBeNull();
    expect(
      readRegistryText(
        'Singapore private company limited by shares (Pte. Ltd.) registered under UEN 202418060H',
      ),
    ).toMatchObject({ legal_name: null, register_number: 'UEN 202418060H' });
    expect(
      readRegistryText(
        'Hashnote Ltd – Cayman fund; Circle, a Bermuda Monetary Authority–licensed business',
      ).regulator,
    ).toBeNull();
    expect(
      readRegistryText('Sygnum Bank AG – Swiss bank; supervised by FINMA as a licensed bank')
        .regulator,
    ).toBe('FINMA');
  });
  test("a programme's flags: each flag its series' rows agree on, null where they differ, listings counted", () => {
    const base = {
      access_model: 'permissionless',
      redeemable: true,
      exchange_listed: true,
      kyc_to_mint_or_redeem: true,
      allowlist_to_transfer_or_hold: false,
      transferable: true,
      self_custody: true,
      attestations: true,
    } as const;
    expect(mergeFlags([base, { ...base, exchange_listed: false }, base])).toEqual({
      flags: { ...base, exchange_listed: null },
      listed: 2,
    });
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
