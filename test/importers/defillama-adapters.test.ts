// The defillama-adapters importer: on small fixtures (new records whole and valid and unverified,
// existing records get the addresses they lack with their origin, an editor's differing address
// kept and reported, series under an existing and a new programme, unknown chains, unlabelled rows
// and non-assets reported, a second run writes nothing, pinned messages for damaged input), then
// over the captured file beside the clone (the project's records already match it).
/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML records */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { assetRecord, seriesRecord } from '../../src/domain/asset.ts';
import { defillamaAdaptersImporter } from '../../src/importers/defillama-adapters/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { sharedData } from '../helpers/shared-data.ts';

const FIXTURES = path.resolve('test/fixtures/importers/defillama-adapters');
const INPUT = `${FIXTURES}/adapter-contracts.csv`;
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-adapters-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (file = INPUT, at = root) =>
  defillamaAdaptersImporter.run({
    root: at,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-27',
    env: {},
  });
const fileOf = (result: Awaited<ReturnType<typeof run>>, rel: string) => {
  const c = result.changes.find((x) => x.path === rel);
  return c ? parse(c.after) : undefined;
};

describe('defillama-adapters importer on fixtures', () => {
  test('a new product is a whole, valid, unverified record with null reasons and a named class rule', async () => {
    const result = await run();
    const created = result.changes.filter((c) => /data\/assets\/TFIN-FUND-ETH-2026/.test(c.path));
    expect(created.map((c) => c.path)).toEqual(['data/assets/TFIN-FUND-ETH-2026-0001.yaml']);
    const r = parse(created[0]!.after);
    expect(assetRecord.safeParse(r).success).toBe(true);
    expect(r).toMatchObject({
      name: 'Spiko UK T-Bills Money Market Fund',
      short_name: 'UKTBL',
      tfic: 'FUND.MMFD',
      issuer: { name: 'Spiko', lei: null, jurisdiction: null },
      identifiers: { isin: null },
      validation: { level: 'unverified' },
      mica: { status: 'financial_instrument' },
      dates: { launch_date: null },
    });
    expect(r.mica.rationale).toMatch(/^Rule fund-units: .*Art\. 2\(4\)\(a\)/);
    expect(r.issuer.jurisdiction_null_reason).toMatch(/not stated/);
    expect(r.validation.basis).toMatch(/an aggregator's data rather than a ledger read/);
    expect(r.validation.basis).toMatch(
      /Credit factors follow rule fund-units; a risk factor no source states is unknown, with its reason\.$/,
    );
    // No guessed value: the class rule's credit facts name the rule, every other factor is unknown with its reason.
    expect(r.risk_factors.credit).toEqual({
      underlying_credit: 'sovereign_other_investment_grade',
      structure: 'fund_ring_fenced',
    });
    expect(r.risk_factor_notes.credit.structure).toEqual({ rule: 'fund-units' });
    expect(r.risk_factors.regulatory).toEqual({ regime: 'unknown', eu_access: 'unknown' });
    expect(r.risk_factor_notes.regulatory.regime.reason).toMatch(
      /^No source of this record states/,
    );
    expect(r.ledgers.map((l: any) => [l.ledger, l.contract_address])).toEqual([
      ['ETH', '0xf695Df6c0f3bB45918A7A82e83348FC59517734E'],
      ['POL', '0x970E2aDC2fdF53AEa6B5fa73ca6dc30eAFEDfe3D'],
    ]);
    expect(r.ledgers[0].origin).toEqual({
      source: 'defillama-rwa-adapters',
      repository: 'DefiLlama/DefiLlama-Adapters',
      path: 'projects/spiko/index.js',
      line: expect.any(Number),
      commit: '1eb4e81d4dd0fa8e2c27a428fe8120b37c985689',
    });
    expect(r.sources[0].provenance).toMatchObject({ rows: 11, file_name: 'adapter-contracts.csv' });
  });

  test('a record written with worst-case values for unstated facts gets unknown with reasons; an editor value stays', async () => {
    cpSync(
      `${FIXTURES}/worst-case/TFIN-CMDY-ALG-2026-0001.yaml`,
      path.join(root, 'data/assets/TFIN-CMDY-ALG-2026-0001.yaml'),
    );
    const result = await run();
    const r = fileOf(result, 'data/assets/TFIN-CMDY-ALG-2026-0001.yaml');
    expect(assetRecord.safeParse(r).success).toBe(true);
    expect(r.risk_factors).toMatchObject({
      liquidity: { redemption: 'unknown', secondary_market: 'unknown' },
      counterparty: { custodian_or_depository: 'unknown', issuer_or_sponsor: 'unknown' },
      regulatory: { regime: 'eu_or_uk_prospectus_or_ucits', eu_access: 'unknown' },
    });
    expect(r.risk_factor_notes.regulatory).toEqual({
      eu_access: { reason: expect.stringMatching(/^No source of this record states whether/) },
    });
    expect(r.risk_factor_notes.credit).toEqual({
      underlying_credit: { rule: 'commodity-token' },
      structure: { rule: 'commodity-token' },
    });
    expect(r.validation.basis).not.toMatch(/least favourable/);
    expect(result.report).toContain(
      'data/assets/TFIN-CMDY-ALG-2026-0001.yaml: unstated risk factors are unknown, with their reasons',
    );
    applyChanges(root, plan(root, result.changes));
    expect(plan(root, (await run()).changes)).toEqual([]);
  });

  test("an existing record gets the addresses it lacks; an editor's differing address is kept and reported", async () => {
    const result = await run();
    const r = fileOf(result, 'data/assets/TFIN-FUND-ETH-2023-0002.yaml');
    const byLedger = Object.fromEntries(r.ledgers.map((l: any) => [l.ledger, l]));
    expect(byLedger.BNB.contract_address).toBe('0x5b4681F0d7A01B817675F25892D3Ad73572FD1D9');
    expect(byLedger.BNB.contract_address_null_reason).toBeNull();
    expect(byLedger.BNB.origin.source).toBe('defillama-rwa-adapters');
    expect(byLedger.XRP.contract_address).toBe('rJNE2NNz83GJYtWVLwMvchDWEon3huWnFn');
    expect(byLedger.SOL.contract_address).toBe('4MmJVdwYN8LwvbGeCowYjSx7KoEi6BJWg8XXnW4fDDp6');
    expect(byLedger.SOL.origin).toBeUndefined();
    // The record's validation is its own: an aggregator's address does not raise it.
    const before = parse(
      readFileSync(`${FIXTURES}/data/assets/TFIN-FUND-ETH-2023-0002.yaml`, 'utf8'),
    );
    expect(r.validation).toEqual(before.validation);
    expect(r.sources.map((s: any) => s.id)).toContain('defillama-rwa-adapters');
    expect(result.report).toContain(
      'data/assets/TFIN-FUND-ETH-2023-0002.yaml: editor value kept: SOL contract is 4MmJVdwYN8LwvbGeCowYjSx7KoEi6BJWg8XXnW4fDDp6; the adapter says 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    );
  });

  test('tokens of a programme are series of it; a programme missing from data/assets is created', async () => {
    const result = await run();
    const series = result.changes.filter((c) => c.path.startsWith('data/assets/series/'));
    const records = series.map((c) => parse(c.after));
    for (const s of records) expect(seriesRecord.safeParse(s).success).toBe(true);
    expect(records.map((s) => [s.tfin, s.programme, s.name, s.underlying.name])).toEqual([
      ['TFIN-STRU-SOL-2026-0002', 'TFIN-STRU-SOL-2025-0001', 'Abbott xStock', 'Abbott'],
      ['TFIN-STRU-SOL-2026-0003', 'TFIN-STRU-SOL-2026-0001', 'Tesla, Inc. rStock', 'Tesla, Inc.'],
    ]);
    // The series' first ledger is its programme's.
    expect(records[0].ledgers.map((l: any) => l.ledger)).toEqual(['SOL', 'ARB']);
    const programme = fileOf(result, 'data/assets/TFIN-STRU-SOL-2026-0001.yaml');
    expect(assetRecord.safeParse(programme).success).toBe(true);
    expect(programme).toMatchObject({ kind: 'programme', tfic: 'STRU.TRCK' });
    expect(programme.mica.rationale).toMatch(/^Rule structured-note: /);
    expect(programme.ledgers).toEqual([
      expect.objectContaining({ ledger: 'SOL', contract_address: null }),
    ]);
  });

  test('unknown chains, unlabelled rows and products that are not assets are reported, never guessed', async () => {
    const result = await run();
    expect(result.report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^row 11: Backed Assets \(JE\) Ltd token on base .* names no product/,
        ),
        'chain "notachain" (1 row(s)) has no ledger code in data/codes/ledgers.yaml; those addresses are not imported',
        'VNX Commodities AG VEUR: not an asset record (A fiat-referenced stablecoin.)',
      ]),
    );
    expect(
      result.changes.some((c) => c.after.includes('0xC3cE78B037DDA1B966D31EC7979d3f3a38571A8E')),
    ).toBe(false);
  });

  test('a second run on the same file writes nothing', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    const again = await run();
    expect(plan(root, again.changes)).toEqual([]);
  });

  test.each([
    [
      'a missing column',
      (t: string) => t.replace('label_basis,', 'basis,'),
      /row 1, column label_basis: has no column "label_basis"/,
    ],
    [
      'an EVM address that is not one',
      (t: string) =>
        t.replace(
          '0x5b4681F0d7A01B817675F25892D3Ad73572FD1D9,0x5b4681F0d7A01B817675F25892D3Ad73572FD1D9',
          '0x5b46,0x5b46',
        ),
      /row 2, column address: "0x5b46" is not an EVM address\n {4}expected: 0x and 40 hexadecimal digits/,
    ],
    [
      'an empty issuer',
      (t: string) => t.replace('VNX Euro,VEUR,VNX Commodities AG,', 'VNX Euro,VEUR,,'),
      /row 12, column issuer: is empty\n {4}expected: the issuer the adapter belongs to/,
    ],
  ])('refuses %s with a pinned message and writes nothing', async (_, damage, message) => {
    const damaged = path.join(root, 'damaged.csv');
    writeFileSync(damaged, damage(readFileSync(INPUT, 'utf8')));
    await expect(run(damaged)).rejects.toThrow(message);
  });
});

const data = sharedData('defillama-rwa/adapter-contracts.csv');
describe.skipIf(!data.present)(
  `defillama-adapters importer on the captured file (${data.reason})`,
  () => {
    test("the project's records already match the adapter file: re-running writes nothing", async () => {
      const project = path.resolve('.');
      const result = await run(data.file('defillama-rwa/adapter-contracts.csv'), project);
      expect(plan(project, result.changes).map((c) => c.path)).toEqual([]);
      expect(result.report.at(-1)).toMatch(
        /^361 products: .* 0 new records, 0 new series, 9 not imported$/,
      );
    });
  },
);
