// The DefiLlama stablecoins importer on fixtures in the API's two shapes: figures refreshed with
// history, the source and provenance recorded, refused sources dropped, and a pinned message for
// each kind of bad input.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { source } from '../../src/domain/common.ts';
import { stablecoinsImporter } from '../../src/importers/stablecoins/index.ts';
import { applyChanges, plan } from '../../src/importers/shared/changes.ts';
import { readFileInput } from '../../src/importers/shared/input.ts';

const FIXTURES = 'test/fixtures/importers/stablecoins';
const LIST = `${FIXTURES}/2026-11-20-stablecoins.json`;
const DETAIL = `${FIXTURES}/2026-11-21-stablecoin-2.json`;
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-stablecoins-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
  mkdirSync(path.join(root, 'data/codes'));
  cpSync('data/codes/source-policy.yaml', path.join(root, 'data/codes/source-policy.yaml'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (file: string) =>
  stablecoinsImporter.run({
    root,
    input: readFileInput(file),
    previous: null,
    today: '2026-11-22',
    env: {},
  });
const after = async (file: string, record: string) =>
  (await run(file)).changes.find((c) => c.path === `data/stablecoins/${record}.yaml`)?.after;
const sha256Of = (file: string) => readFileInput(file).sha256;

describe('stablecoins importer: the /stablecoins list', () => {
  test('refreshes both figures, moves the previous values into history, newest first', async () => {
    expect(await after(LIST, 'eurc')).toBe(`id: eurc
symbol: EURC
name: EURC
peg_currency: EUR
ledgers: [ETH, SOL]
market_cap:
  value: 321000000
  currency: EUR
  as_of: "2026-11-20"
  source: defillama-eurc-2026-11-20
  history:
    - { value: 310000000, as_of: "2025-12-31", source: circle-q4-fy2025-results }
    - {value: 250000000, as_of: "2025-09-30", source: circle-q3-fy2025-results} # kept as written
circulating_supply:
  value: 321000000
  as_of: "2026-11-20"
  source: defillama-eurc-2026-11-20
  history:
    - { value: 310000000, as_of: "2025-12-31", source: circle-q4-fy2025-results }
sources:
  - id: circle-q4-fy2025-results
    kind: issuer
    title: Circle Q4 FY2025 results
    publisher: Circle
    url: https://investor.circle.com/q4-2025
    accessed: "2026-11-21"
    published: "2026-02-25"
  - id: circle-q3-fy2025-results
    kind: issuer
    title: Circle Q3 FY2025 results
    publisher: Circle
    url: https://investor.circle.com/q3-2025
    accessed: "2026-11-21"
    published: "2025-11-12"
  - id: defillama-eurc-2026-11-20
    kind: data_aggregator
    title: "DefiLlama stablecoin data: EURC (EURC) circulating amount, EUR peg, 2026-11-20"
    publisher: DefiLlama
    url: https://defillama.com/stablecoin/eurc
    accessed: "2026-11-22"
    published: "2026-11-20"
    provenance:
      source_url: https://stablecoins.llama.fi/stablecoins
      file_name: 2026-11-20-stablecoins.json
      file_date: "2026-11-20"
      last_modified: null
      sha256: ${sha256Of(LIST)}
      rows: 5
      imported: "2026-11-22"
as_of: "2025-12-31"
`);
  });

  test('a value resting on a refused domain is not kept as history, and its source goes', async () => {
    const usdt = parse((await after(LIST, 'usdt'))!);
    expect(usdt.market_cap).toEqual({
      value: 190123456789.12,
      currency: 'USD',
      as_of: '2026-11-20',
      source: 'defillama-tether-2026-11-20',
    });
    // The old supply was null (with its reason): nothing to keep, and the reason goes with it.
    expect(usdt.circulating_supply).toEqual({
      value: 190123456789.12,
      as_of: '2026-11-20',
      source: 'defillama-tether-2026-11-20',
    });
    expect(usdt.sources.map((s: { id: string }) => s.id)).toEqual([
      'tether-transparency',
      'defillama-tether-2026-11-20',
    ]);
    expect(usdt.sources[1].url).toBe('https://defillama.com/stablecoin/tether');
    expect(source.parse(usdt.sources[1])).toEqual(usdt.sources[1]);
  });

  test('reports ambiguous tickers, coins missing from the input, and what changed', async () => {
    expect((await run(LIST)).report).toEqual([
      '/stablecoins list: 5 coin(s), 5 row(s)',
      'data/stablecoins/eurc.yaml: circulating_supply 321000000 EUR as of 2026-11-20 (was 310000000 as of 2025-12-31 (circle-q4-fy2025-results)); market_cap 321000000 EUR as of 2026-11-20 (was 310000000 as of 2025-12-31 (circle-q4-fy2025-results))',
      'data/stablecoins/pyusd.yaml: no DefiLlama coin is PYUSD/USD in the input',
      'data/stablecoins/usdc.yaml: no DefiLlama coin is USDC/USD in the input',
      'data/stablecoins/usde.yaml: 2 DefiLlama coins are USDe/USD (id 146 "Ethena USDe", id 999 "Another USDe"); not changed',
      'data/stablecoins/usdt.yaml: circulating_supply 190123456789.12 USD as of 2026-11-20 (was null as of 2025-12-31 (tether-transparency)); market_cap 190123456789.12 USD as of 2026-11-20 (was 186288000000 as of 2025-12-20 (defillama-weekly-2025-12-20)); sources on refused domains dropped: defillama-weekly-2025-12-20',
    ]);
  });

  test('a second run on the same file changes nothing; an older file never overwrites', async () => {
    applyChanges(root, plan(root, (await run(LIST)).changes));
    expect(plan(root, (await run(LIST)).changes)).toEqual([]);
    const older = path.join(root, '2026-11-19-stablecoins.json');
    cpSync(LIST, older);
    const result = await run(older);
    expect(plan(root, result.changes)).toEqual([]);
    expect(result.report).toContain(
      "data/stablecoins/eurc.yaml: circulating_supply kept: the record's circulating_supply is dated 2026-11-20, after the input (2026-11-19); market_cap kept: the record's market_cap is dated 2026-11-20, after the input (2026-11-19)",
    );
  });
});

describe('stablecoins importer: one /stablecoin/{id}', () => {
  test('sums the newest amount of each chain, dated by the API', async () => {
    const result = await run(DETAIL);
    expect(result.report).toEqual([
      '/stablecoin/{id}: 1 coin(s), 4 row(s)',
      'data/stablecoins/usdc.yaml: circulating_supply 49750000000.5 USD as of 2026-11-21 (was 75300000000 as of 2025-12-31 (circle-q4-fy2025-results)); market_cap 49750000000.5 USD as of 2026-11-21 (was 77109000000 as of 2025-12-20 (circle-q4-fy2025-results))',
    ]);
    const usdc = parse(result.changes[0]!.after);
    expect(usdc.market_cap.history).toEqual([
      { value: 77109000000, as_of: '2025-12-20', source: 'circle-q4-fy2025-results' },
    ]);
    expect(usdc.sources[1]).toMatchObject({
      id: 'defillama-usd-coin-2026-11-21',
      url: 'https://defillama.com/stablecoin/usd-coin',
      published: '2026-11-21',
      provenance: { source_url: 'https://stablecoins.llama.fi/stablecoin/2', rows: 4 },
    });
  });
});

describe('stablecoins importer over HTTP (--url)', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('dates the list by Last-Modified and records the URL', async () => {
    server = createServer((_, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'last-modified': 'Fri, 20 Nov 2026 08:00:00 GMT',
      });
      res.end(readFileSync(LIST));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/stablecoins`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      'scripts/data-import.ts',
      'stablecoins',
      '--url',
      url,
      '--root',
      root,
    ]);
    expect(stdout).toContain('+  source: defillama-eurc-2026-11-20\n');
    expect(stdout).toContain(`+      source_url: ${url}\n`);
    expect(stdout).toContain('+      last_modified: Fri, 20 Nov 2026 08:00:00 GMT\n');
    expect(stdout).toContain('file(s) would change; run again with --write to apply.');
  }, 180_000);
});

const LIST_SHAPE =
  'DefiLlama /stablecoins: peggedAssets[] with id, name, symbol, pegType and circulating';
const DETAIL_SHAPE =
  'DefiLlama /stablecoin/{id}: id, name, symbol, pegType and chainBalances.<chain>.tokens[] with date (Unix seconds) and circulating';

// One pinned message per kind of bad input: [kind, file in bad/, place and problem, expected].
test.each([
  [
    'missing field',
    '2026-11-20-missing-field.json',
    'row 4: peggedAssets[1]: "symbol" is missing',
    LIST_SHAPE,
  ],
  [
    "bad date in a list's file name",
    '2026-02-30-stablecoins.json',
    'the date in its name (2026-02-30) is not a calendar date on or before 2026-11-22',
    'a file named YYYY-MM-DD-….json with the day it was downloaded',
  ],
  [
    'bad date in the API',
    '2026-11-21-bad-date-detail.json',
    'row 10: chainBalances.Ethereum.tokens[1].date: "2026-11-21" is not a date between 2017-01-01 and 2026-11-22',
    `${DETAIL_SHAPE}; date in Unix seconds`,
  ],
  [
    'truncated JSON',
    '2026-11-20-truncated.json',
    'row 10, column 43: the JSON ends before the document is complete (a truncated download?)',
    'the complete JSON answer of the API, saved as it was sent',
  ],
  [
    'wrong encoding',
    '2026-11-20-latin1.json',
    'row 3: is not valid UTF-8 (byte 0xe4 at offset 50)',
    'UTF-8 text, as the source publishes it (re-download the file rather than re-saving it)',
  ],
  [
    'duplicate id',
    '2026-11-20-duplicate-id.json',
    'row 5: peggedAssets[2].id: id "1" appears again (first at peggedAssets[0])',
    `${LIST_SHAPE}; each id once`,
  ],
])('bad input, %s: refused with a pinned message', async (_, file, problem, expected) => {
  const name = `${FIXTURES}/bad/${file}`;
  const separator = problem.startsWith('row') ? ', ' : ': ';
  await expect(run(name)).rejects.toThrow(
    `${name}${separator}${problem}\n    expected: ${expected}`,
  );
});

test('bad input: a file that is not JSON, or JSON of neither shape', async () => {
  const yamlFile = path.join(root, '2026-11-20-other.json');
  cpSync(`${FIXTURES}/data/stablecoins/usdt.yaml`, yamlFile);
  await expect(run(yamlFile)).rejects.toThrow(
    `${yamlFile}: is not valid JSON (Unexpected token 'i')\n`,
  );
  const gleif = 'test/fixtures/importers/gleif/2026-11-22-lei-records.json';
  await expect(run(gleif)).rejects.toThrow(
    `${gleif}, row 1: has neither "peggedAssets" nor "chainBalances"\n`,
  );
});
