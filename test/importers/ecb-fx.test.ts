// The ECB reference-rate importer on fixtures in the ECB's three shapes (hist CSV, daily CSV,
// XML): only the rates the data's non-USD figures need (EUR→USD and EUR→currency of one day, the
// latest within the conversion age), an editor's rate never replaced (a different value is
// reported), figures no rate covers reported, bad input refused with file, row and column, and a
// second run on the same file changes nothing.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ecbFxImporter } from '../../src/importers/ecb-fx/index.ts';
import { readEcbRates } from '../../src/importers/ecb-fx/read.ts';
import { usdRate } from '../../src/dataset/stablecoins.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';

const FIXTURES = 'test/fixtures/importers/ecb-fx';
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-ecb-fx-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (file = `${FIXTURES}/2019-10-01-eurofxref-hist.csv`) =>
  ecbFxImporter.run({
    root,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-27',
    env: {},
  });
const fx = (text: string) =>
  parse(text) as { rates: Record<string, unknown>[]; sources: Record<string, unknown>[] };

describe('ecb-fx importer on fixtures', () => {
  test('adds the rates the figures need, of the latest ECB day within the conversion age', async () => {
    const result = await run();
    expect(result.changes.map((c) => c.path)).toEqual(['data/fx.yaml']);
    const after = fx(result.changes[0]!.after);
    expect(after.rates).toEqual([
      {
        base: 'EUR',
        quote: 'GBP',
        rate: 0.88955,
        date: '2019-10-01',
        source: 'ecb-eurofxref-2019-10-01',
      },
      {
        base: 'EUR',
        quote: 'USD',
        rate: 1.0898,
        date: '2019-10-01',
        source: 'ecb-eurofxref-2019-10-01',
      },
      {
        base: 'EUR',
        quote: 'CHF',
        rate: 1.1419,
        date: '2019-05-02',
        source: 'ecb-eurofxref-2019-05-02',
      },
      // The editor's rate of that day stays as it was (same value: nothing to report).
      { base: 'EUR', quote: 'USD', rate: 1.1212, date: '2019-05-02', source: 'oj-c-151-04-2019' },
    ]);
    expect(after.sources.map((s) => s['id'])).toEqual([
      'oj-c-151-04-2019',
      'ecb-eurofxref-2019-10-01',
      'ecb-eurofxref-2019-05-02',
    ]);
    expect(after.sources[1]).toMatchObject({
      kind: 'regulator_publication',
      publisher: 'European Central Bank',
      published: '2019-10-01',
      accessed: '2026-11-27',
    });
    // The editor's comment is kept.
    expect(
      result.changes[0]!.after.startsWith('# Fixture: the rates an editor already holds.'),
    ).toBe(true);
    // Every figure but the AUD one now converts; that one is reported.
    const rates = { rates: after.rates, sources: [] } as never;
    expect(usdRate(rates, 'EUR', '2019-10-15')).toMatchObject({ rate: 1.0898, date: '2019-10-01' });
    expect(usdRate(rates, 'CHF', '2019-05-20')?.rate).toBe(
      Math.round((1.1212 / 1.1419) * 1e6) / 1e6,
    );
    expect(usdRate(rates, 'GBP', '2019-10-02')?.date).toBe('2019-10-01');
    expect(result.report).toEqual([
      `${FIXTURES}/2019-10-01-eurofxref-hist.csv: ECB euro reference rates, 2 days (2019-05-02 to 2019-10-01); 4 figures in other currencies than USD, 3 rates added`,
      '  not converted: AUD 2018-08-28 (data/assets/TFIN-DEBT-DAL-2018-0001.yaml): the file has no ECB rate for USD and AUD within 62 days before',
    ]);
  });

  test('a second run on the same file changes nothing', async () => {
    applyChanges(root, plan(root, (await run()).changes));
    const again = await run();
    expect(plan(root, again.changes)).toEqual([]);
    expect(again.report[0]).toMatch(/0 rates added$/);
  });

  test('the daily CSV and the XML give the same rates as the history file for their day', async () => {
    const keep = (r: { changes: { after: string }[] }) =>
      fx(r.changes[0]!.after).rates.filter((x) => x['date'] === '2019-10-01');
    const hist = keep(await run());
    expect(keep(await run(`${FIXTURES}/2019-10-01-eurofxref.csv`))).toEqual(hist);
    expect(keep(await run(`${FIXTURES}/2019-10-01-eurofxref-daily.xml`))).toEqual(hist);
  });

  test("an editor's different rate is kept and the disagreement reported", async () => {
    const file = path.join(root, 'data/fx.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('rate: 1.1212', 'rate: 1.1213'));
    const result = await run();
    expect(fx(result.changes[0]!.after).rates).toContainEqual(
      expect.objectContaining({ quote: 'USD', date: '2019-05-02', rate: 1.1213 }),
    );
    expect(result.report).toContain(
      '  kept: data/fx.yaml has EUR/USD 1.1213 on 2019-05-02; the ECB file says 1.1212 (check the source oj-c-151-04-2019)',
    );
  });

  test('a rate that is not a number is refused with the file, row and column', async () => {
    await expect(run(`${FIXTURES}/bad-rate.csv`)).rejects.toThrow(
      `${FIXTURES}/bad-rate.csv, row 2, column GBP: "0" is not a rate\n    expected: a positive decimal number (units of the currency per euro), or N/A`,
    );
  });
});

describe('the ECB rates the data holds', () => {
  // data/sources/ecb-eurofxref-hist-excerpt.csv keeps the rows of the ECB history file that
  // data/fx.yaml was imported from: every rate fx.yaml takes from that file has the file's value,
  // and importing the file again over the real data adds nothing.
  const file = 'data/sources/ecb-eurofxref-hist-excerpt.csv';
  const ecb = readEcbRates(readFileInput(file));
  const held = fx(readFileSync('data/fx.yaml', 'utf8'));
  const fromHist = new Set(
    held.sources
      .filter((s) => String(s['url']).endsWith('/eurofxref-hist.zip'))
      .map((s) => s['id']),
  );

  test('each rate taken from the ECB history file has the value of the committed excerpt', () => {
    const taken = held.rates.filter((r) => fromHist.has(r['source']));
    expect(taken.length).toBeGreaterThan(0);
    for (const r of taken) {
      const day = String(r['date']);
      expect(ecb.get(day)?.get(String(r['quote'])), `${String(r['quote'])} ${day}`).toBe(r['rate']);
    }
  });

  test('importing the excerpt again over the real data changes nothing', async () => {
    const result = await ecbFxImporter.run({
      root: process.cwd(),
      input: readFileInput(file),
      previous: null,
      today: '2026-11-27',
      env: {},
    });
    expect(result.changes).toEqual([]);
    expect(result.report[0]).toMatch(/, 0 rates added$/);
  });
});
