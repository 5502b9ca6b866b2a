// The coin-figures importer: issuers' reports transcribed in figures.csv become circulating supply
// with report month, precision and origin; predecessors go to history; an editor's newer figure
// stays; other rows are reported, not written; a second run writes nothing; the captured file
// already matches the project's records.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { coinFiguresImporter } from '../../src/importers/coin-figures/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';
import { sharedData } from '../helpers/shared-data.ts';

const FIXTURES = path.resolve('test/fixtures/importers/coin-figures');
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-coin-figures-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (at = root, file = `${FIXTURES}/figures.csv`) =>
  coinFiguresImporter.run({
    root: at,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-22',
    env: {},
  });

describe('coin-figures importer on fixtures', () => {
  test('writes the newest report with its month, precision and origin; older values become history', async () => {
    const result = await run();
    const rlusd = parse(result.changes.find((c) => c.path.endsWith('rlusd.yaml'))!.after);
    expect(rlusd.circulating_supply).toEqual({
      value: 1440000000,
      as_of: '2026-04-30',
      source: 'ripple-reserve-reports',
      period: { start: '2026-04-01', end: '2026-04-30' },
      precision: 10000000,
      origin: {
        source: 'ripple-reserve-reports',
        repository: 'DefiLlama/dimension-adapters',
        path: 'fees/ripple-usd.ts',
        line: 15,
        commit: 'e7346b0e9e7d971494bc938eb87226c19a7ed272',
      },
      stale_reason: expect.stringMatching(
        /^The newest known report of Ripple .* is for April 2026; a later figure comes with the issuer's next report/,
      ),
      history: [
        expect.objectContaining({ value: 1240000000, as_of: '2026-03-31' }),
        { value: 1200000000, as_of: '2026-03-15', source: 'ripple-news' },
        expect.objectContaining({ value: 1500000000, as_of: '2026-02-28', precision: 100000000 }),
      ],
    });
    expect(rlusd.sources.at(-1)).toMatchObject({
      id: 'ripple-reserve-reports',
      kind: 'issuer',
      url: 'https://ripple.com/solutions/stablecoin/transparency/',
    });
  });

  test("keeps an editor's newer figure and reports the rows it does not write", async () => {
    const result = await run();
    expect(result.changes.map((c) => c.path)).toEqual(['data/stablecoins/rlusd.yaml']);
    expect(result.report).toEqual(
      expect.arrayContaining([
        "data/stablecoins/usd1.yaml: circulating_supply kept: an editor's figure dated 2026-10-31 (wlfi-october) is newer than the newest report (2026-04-30)",
        expect.stringMatching(
          /skipped row 6: EURCV "market cap \(DefiLlama data quoted\)" is not tokens in circulation/,
        ),
        expect.stringMatching(/skipped row 7: FOBXX .* is a tokenized_fund figure/),
      ]),
    );
  });

  test('a second run writes nothing; a value that is not a number is named with its row', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    expect(plan(root, (await run()).changes)).toEqual([]);
    const bad = path.join(root, 'figures.csv');
    writeFileSync(bad, readFileSync(`${FIXTURES}/figures.csv`, 'utf8').replace(',1.44,', ',1.4x,'));
    await expect(run(root, bad)).rejects.toThrow(
      `${bad}, row 2, column value: "1.4x" is not a number`,
    );
  });
});

const data = sharedData('dated-figures/figures.csv');
describe.skipIf(!data.present)(`coin-figures on the captured file (${data.reason})`, () => {
  test("the project's records already hold every issuer report of the file", async () => {
    const result = await run(path.resolve('.'), data.file('dated-figures/figures.csv'));
    expect(plan(path.resolve('.'), result.changes)).toEqual([]);
    for (const id of ['usdc', 'usdt', 'rlusd', 'usd1']) {
      const r = parse(readFileSync(`data/stablecoins/${id}.yaml`, 'utf8'));
      expect(r.circulating_supply.origin.repository, id).toBe('DefiLlama/dimension-adapters');
    }
  });
});
