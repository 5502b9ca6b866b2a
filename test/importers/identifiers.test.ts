// The identifiers importer: on small fixtures (an ISIN attached to its series after its check
// digit passes, with its origin; a failing check digit reported; an issuer LEI attached to the
// programme its series inherit from; an editor's differing CUSIP kept and reported; a CIK and an
// unmatched subject reported; a second run writes nothing; pinned messages), then over the
// captured file beside the clone (the project's records already match it).
/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML records */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { assetRecord, seriesRecord } from '../../src/domain/asset.ts';
import { identifiersImporter } from '../../src/importers/identifiers/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { sharedData } from '../helpers/shared-data.ts';

const FIXTURES = path.resolve('test/fixtures/importers/identifiers');
const INPUT = `${FIXTURES}/identifiers.csv`;
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-identifiers-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (file = INPUT, at = root) =>
  identifiersImporter.run({
    root: at,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-27',
    env: {},
  });

describe('identifiers importer on fixtures', () => {
  test('attaches an ISIN whose check digit holds, and an issuer LEI, each with its origin', async () => {
    const result = await run();
    const series = parse(
      result.changes.find((c) => c.path.endsWith('series/TFIN-STRU-SOL-2026-0008.yaml'))!.after,
    );
    expect(seriesRecord.safeParse(series).success).toBe(true);
    expect(series.identifiers).toMatchObject({
      isin: 'CH1436219245',
      null_reason: null,
      isin_origin: {
        source: 'defillama-rwa-sheet',
        repository: 'DefiLlama/defillama-server',
        path: 'defi/src/rwa/12Jan.csv',
        commit: 'c0d2c745bd2e6ff5f783deedf756e6e71c082cf6',
      },
    });
    expect(series.sources.map((s: any) => s.id)).toContain('defillama-rwa-sheet');
    const programme = parse(
      result.changes.find((c) => c.path.endsWith('TFIN-STRU-SOL-2025-0001.yaml'))!.after,
    );
    expect(assetRecord.safeParse(programme).success).toBe(true);
    expect(programme.issuer).toMatchObject({
      lei: '984500001AB7C6C7F577',
      lei_null_reason: null,
      lei_origin: { source: 'defillama-rwa-sheet' },
    });
  });

  test("reports a failing check digit, an editor's differing value, a CIK and an unmatched subject", async () => {
    const result = await run();
    expect(result.report).toEqual(
      expect.arrayContaining([
        'row 3 (Chevron xStock (CVXx), ISIN CH1436219368): fails the ISO 6166 check digit; not attached',
        'data/assets/TFIN-FUND-STR-2023-0001.yaml: editor value kept: cusip is 97717K881; the source says 97717K824',
        'row 6 (WisdomTree Digital Trust, CIK 0001859001): SEC CIKs have no field in the record; not attached',
        'row 7 (SwarmX GmbH, LEI 984500H93FZ5D50AFE98): no record matches the subject; not attached',
      ]),
    );
    expect(result.changes.map((c) => c.path).sort()).toEqual([
      'data/assets/TFIN-STRU-SOL-2025-0001.yaml',
      'data/assets/series/TFIN-STRU-SOL-2026-0008.yaml',
    ]);
  });

  test('a second run on the same file writes nothing', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    expect(plan(root, (await run()).changes)).toEqual([]);
  });

  test.each([
    [
      'a missing column',
      (t: string) => t.replace('identifier_type,', 'type,'),
      /row 1, column identifier_type: has no column "identifier_type"/,
    ],
    [
      'an unknown identifier type',
      (t: string) => t.replace('Broadcom xStock (AVGOx),ISIN,', 'Broadcom xStock (AVGOx),WKN,'),
      /row 2, column identifier_type: "WKN" is not an identifier type\n {4}expected: ISIN, CUSIP, LEI \(issuer\) or SEC CIK/,
    ],
  ])('refuses %s with a pinned message', async (_, damage, message) => {
    const damaged = path.join(root, 'damaged.csv');
    writeFileSync(damaged, damage(readFileSync(INPUT, 'utf8')));
    await expect(run(damaged)).rejects.toThrow(message);
  });
});

const data = sharedData('identifiers/identifiers.csv');
describe.skipIf(!data.present)(`identifiers importer on the captured file (${data.reason})`, () => {
  test("the project's records already carry every identifier that passes: re-running writes nothing", async () => {
    const project = path.resolve('.');
    const result = await run(data.file('identifiers/identifiers.csv'), project);
    expect(plan(project, result.changes).map((c) => c.path)).toEqual([]);
  });
});
