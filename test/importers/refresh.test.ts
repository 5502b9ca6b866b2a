// The refresh's guard and its orchestration on small fixtures: a figure that moves beyond its
// kind's threshold is held (its file keeps the previous text) and reported; sources without their
// variable are not configured; a source that fails writes nothing and the others go on; the
// journal puts every file back. The whole command on real nodes and the captured sources:
// data-refresh.test.ts.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  readRefreshConfig,
  refreshConfig,
  type RefreshConfig,
} from '../../src/importers/refresh/config.ts';
import { figureChanges, guard } from '../../src/importers/refresh/guards.ts';
import { refresh, restore } from '../../src/importers/refresh/run.ts';
import type { PlannedChange } from '../../src/importers/shared/changes.ts';

const LIMITS = {
  circulating_supply: 25,
  market_cap: 25,
  total_supply: 50,
  aum: 50,
  outstanding: 50,
  issued: 0,
};

const coin = (circulating: number, supply?: number) =>
  [
    'id: tusd',
    'market_cap: { value: 100, as_of: "2026-11-01", source: a }',
    `circulating_supply: { value: ${circulating}, as_of: "2026-11-01", source: a }`,
    'deployments:',
    '  - ledger: ETH',
    '    contract_address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"',
    ...(supply === undefined
      ? []
      : [`    supply: { kind: total_supply, value: ${supply}, as_of: "2026-11-02" }`]),
    '',
  ].join('\n');
const change = (before: string | null, after: string, file = 'data/stablecoins/tusd.yaml') =>
  ({ path: file, before, after }) satisfies PlannedChange;

describe('guard', () => {
  test('a figure within its kind threshold is published; beyond it, its file is held', () => {
    const within = change(coin(100), coin(124.9));
    const beyond = change(coin(100), coin(126));
    const drop = change(coin(100), coin(70));
    const { publish, held } = guard([within, beyond, drop], LIMITS);
    expect(publish).toEqual([within]);
    expect(held.map((h) => [h.at, h.kind, Math.round(h.change_pct), h.max_change_pct])).toEqual([
      ['circulating_supply', 'circulating_supply', 26, 25],
      ['circulating_supply', 'circulating_supply', -30, 25],
    ]);
  });

  test("a deployment's total supply has its own threshold; a first reading has nothing to compare with", () => {
    const first = change(coin(100), coin(100, 5_000));
    const moved = change(coin(100, 5_000), coin(100, 7_400));
    const jumped = change(coin(100, 5_000), coin(100, 7_600));
    const fromZero = change(coin(100, 0), coin(100, 1));
    const { publish, held } = guard([first, moved, jumped, fromZero], LIMITS);
    expect(publish).toEqual([first, moved]);
    expect(held.map((h) => [h.kind, h.change_pct])).toEqual([
      ['total_supply', 52],
      ['total_supply', Infinity],
    ]);
  });

  test('a held contract supply keeps its previous value while the rest of its file is published', () => {
    const twoLedgers = (eth: number, pol: number) =>
      [
        'id: tusd',
        'deployments:',
        '  - ledger: ETH',
        '    contract_address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"',
        '    supply: { kind: total_supply, value: ' + eth + ', as_of: "2026-11-02" } # as written',
        '  - ledger: POL',
        '    contract_address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"',
        '    supply:',
        '      kind: total_supply',
        `      value: ${pol}`,
        '      as_of: "2026-11-02"',
        '',
      ].join('\n');
    const { publish, held } = guard(
      [change(twoLedgers(5_000, 100), twoLedgers(9_000, 120))],
      LIMITS,
    );
    expect(held.map((h) => [h.at, h.change_pct])).toEqual([
      ['deployments ETH 0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 supply', 80],
    ]);
    // Byte for byte: the held supply as it was written, the other one moved.
    expect(publish.map((p) => p.after)).toEqual([twoLedgers(5_000, 120)]);
  });

  test("an asset's amount is guarded by its kind, and a fixed issue size may not move at all", () => {
    const asset = (kind: string, value: number) =>
      `tfin: T\namount: { kind: ${kind}, value: ${value}, as_of: "2026-11-01", source: a }\n`;
    const file = 'data/assets/T.yaml';
    const { publish, held } = guard(
      [
        change(asset('aum', 100), asset('aum', 140), file),
        change(asset('issued', 100), asset('issued', 101), file),
      ],
      LIMITS,
    );
    expect(publish.map((p) => p.after)).toEqual([asset('aum', 140)]);
    expect(held.map((h) => h.kind)).toEqual(['issued']);
  });

  test('figure changes name the figure, its kind and both dated values', () => {
    expect(figureChanges(change(coin(100, 5), coin(110, 5)))).toEqual([
      {
        path: 'data/stablecoins/tusd.yaml',
        at: 'circulating_supply',
        kind: 'circulating_supply',
        before: {
          at: 'circulating_supply',
          kind: 'circulating_supply',
          value: 100,
          as_of: '2026-11-01',
        },
        after: {
          at: 'circulating_supply',
          kind: 'circulating_supply',
          value: 110,
          as_of: '2026-11-01',
        },
      },
    ]);
  });
});

describe('refresh on the stablecoins importer fixtures', () => {
  const FIXTURES = 'test/fixtures/importers/stablecoins';
  let root: string;
  const config = (circulatingLimit: number, extra: RefreshConfig['sources'] = []): RefreshConfig =>
    refreshConfig.parse({
      guards: { max_change_pct: { ...LIMITS, circulating_supply: circulatingLimit } },
      sources: [
        { importer: 'esma', file: '${TAI_TEST_UNSET_ESMA}' },
        { importer: 'stablecoins', file: `${FIXTURES}/2026-11-20-stablecoins.json` },
        ...extra,
        { importer: 'onchain' },
      ],
    });
  const text = (file: string) => readFileSync(path.join(root, file), 'utf8');

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'tai-refresh-'));
    cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
    cpSync('data/codes', path.join(root, 'data/codes'), { recursive: true });
    writeFileSync(
      path.join(root, 'data/release.yaml'),
      '# the release\ndataset_date: "2026-11-01"\n',
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('raises the dataset date, runs the configured sources, lists the others', async () => {
    const eurcBefore = text('data/stablecoins/eurc.yaml');
    const outcome = await refresh({ root, config: config(25), date: '2026-11-22', env: {} });
    expect(text('data/release.yaml')).toBe('# the release\ndataset_date: "2026-11-22"\n');
    expect(outcome.previousDatasetDate).toBe('2026-11-01');
    expect(outcome.sources.map((s) => [s.label, s.status, s.reason ?? null])).toEqual([
      ['esma ${TAI_TEST_UNSET_ESMA}', 'not configured', 'TAI_TEST_UNSET_ESMA not set'],
      [`stablecoins ${FIXTURES}/2026-11-20-stablecoins.json`, 'written', null],
      ['onchain', 'not configured', 'no RPC_URL_<LEDGER> set'],
    ]);
    expect(text('data/stablecoins/eurc.yaml')).not.toBe(eurcBefore);
    expect(outcome.changed).toContainEqual(
      expect.objectContaining({
        path: 'data/stablecoins/eurc.yaml',
        at: 'circulating_supply',
        after: expect.objectContaining({ value: 321_000_000, as_of: '2026-11-20' }),
      }),
    );
    expect(outcome.held).toEqual([]);
  });

  test('a figure beyond its threshold keeps its whole file as it was, and is reported', async () => {
    const before = text('data/stablecoins/eurc.yaml');
    const outcome = await refresh({ root, config: config(1), date: '2026-11-22', env: {} });
    expect(text('data/stablecoins/eurc.yaml')).toBe(before);
    expect(outcome.held).toContainEqual(
      expect.objectContaining({
        path: 'data/stablecoins/eurc.yaml',
        at: 'circulating_supply',
        max_change_pct: 1,
      }),
    );
    expect(outcome.changed.some((c) => c.path === 'data/stablecoins/eurc.yaml')).toBe(false);
  });

  test('a source that fails writes nothing, the next ones run, and restore puts every file back', async () => {
    const files = ['data/release.yaml', 'data/stablecoins/eurc.yaml', 'data/stablecoins/usdt.yaml'];
    const before = files.map(text);
    const journal = new Map<string, string | null>();
    const outcome = await refresh(
      {
        root,
        config: refreshConfig.parse({
          guards: { max_change_pct: LIMITS },
          sources: [
            { importer: 'gleif', file: `${FIXTURES}/missing.json` },
            { importer: 'stablecoins', file: `${FIXTURES}/2026-11-20-stablecoins.json` },
          ],
        }),
        date: '2026-11-22',
        env: {},
      },
      journal,
    );
    expect(outcome.sources[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(
        /^test\/fixtures\/importers\/stablecoins\/missing\.json: cannot be read \(.+\); expected: a readable file$/,
      ),
    });
    expect(outcome.sources[1]!.status).toBe('written');
    expect(files.map(text)).not.toEqual(before);
    restore(root, journal);
    expect(files.map(text)).toEqual(before);
  });
});

test('the deployed configuration is valid and names a threshold for every kind', () => {
  const config = readRefreshConfig('deploy/data-refresh.yaml');
  expect(Object.keys(config.guards.max_change_pct).sort()).toEqual(Object.keys(LIMITS).sort());
  expect(config.sources.map((s) => s.importer)).toContain('onchain');
  // The methodology page states the thresholds to users: it must say what the configuration does.
  const { circulating_supply, market_cap, total_supply, aum, outstanding } =
    config.guards.max_change_pct;
  expect(circulating_supply).toBe(market_cap);
  expect(new Set([total_supply, aum, outstanding]).size).toBe(1);
  const page = readFileSync('src/pages/docs/methodology.astro', 'utf8').replace(/\s+/g, ' ');
  expect(page).toContain(
    `(${circulating_supply} % for a coin's circulating supply or market cap, ${total_supply} % for a contract's total supply, a fund's AUM or an amount outstanding)`,
  );
});
