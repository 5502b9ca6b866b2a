// The refresh's plausibility checks on planned changes (the whole command against real hostile
// nodes: refresh-hostile.test.ts): each check on its own, the value a refused read keeps, and a
// configuration that can tighten the bounds but never loosen them or switch a check off.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { readRefreshConfig, refreshConfig } from '../../src/importers/refresh/config.ts';
import {
  checkPlausible,
  FIRST_READ_CEILING,
  PLAUSIBILITY_BOUNDS,
} from '../../src/importers/refresh/plausibility.ts';
import { keepOutUnsafeText } from '../../src/importers/refresh/unsafe-text.ts';

const CLOCK = Date.parse('2026-11-27T06:00:00Z');
const LIMITS = { max_decimals: 36, max_supply_multiple: 10, max_block_age_hours: 24 };
const ADDRESS = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

interface Read {
  value: number;
  decimals?: number;
  block?: number;
  time?: string;
  chain?: number;
}

const supply = (r: Read) =>
  `    supply: { kind: total_supply, value: ${r.value}, as_of: "${(r.time ?? '2026-11-27T05:00:00Z').slice(0, 10)}", chain_id: ${r.chain ?? 1}, block_number: ${r.block ?? 100}, block_time: "${r.time ?? '2026-11-27T05:00:00Z'}", decimals: ${r.decimals ?? 6} }`;

const coin = (read: Read | null, options: { circulating?: number | null; status?: string } = {}) =>
  [
    'id: tusd',
    `status: { value: ${options.status ?? 'live'} }`,
    `circulating_supply: { value: ${options.circulating === undefined ? 1_000_000 : options.circulating}, as_of: "2026-11-01", source: a }`,
    'deployments:',
    '  - ledger: ETH',
    `    contract_address: "${ADDRESS}"`,
    ...(read ? [supply(read)] : []),
    '',
  ].join('\n');

const change = (before: string, after: string) => ({
  path: 'data/stablecoins/tusd.yaml',
  before,
  after,
});

const reasonsOf = (before: string, after: string, limits = LIMITS) =>
  checkPlausible([change(before, after)], limits, CLOCK).refused.flatMap((r) => r.reasons);

describe('a first read', () => {
  test('within the bounds and 10 × the known figure is published', () => {
    const c = change(coin(null), coin({ value: 9_000_000 }));
    expect(checkPlausible([c], LIMITS, CLOCK)).toEqual({ publish: [c], refused: [] });
  });

  test('2^256−1, zero while live, or decimals of 255 is kept out, and the deployment keeps no supply', () => {
    expect(reasonsOf(coin(null), coin({ value: 1.157920892373162e71 }))).toEqual([
      "the supply 1.157921e+71 is more than 10 × the coin's circulating supply (1,000,000)",
    ]);
    expect(reasonsOf(coin(null), coin({ value: 0 }))).toEqual([
      'the supply is zero for a live token',
    ]);
    expect(reasonsOf(coin(null), coin({ value: 5, decimals: 255 }))).toEqual([
      'decimals 255 is outside 0–36',
    ]);
    // A wound-down coin may read zero.
    expect(
      reasonsOf(coin(null, { status: 'wound_down' }), coin({ value: 0 }, { status: 'wound_down' })),
    ).toEqual([]);
    // The refused read is not written: the file is as it was, so the change is dropped.
    const { publish } = checkPlausible([change(coin(null), coin({ value: 0 }))], LIMITS, CLOCK);
    expect(publish).toEqual([]);
  });

  test('with no figure known beside it, a first read is bounded by the absolute ceiling only', () => {
    expect(
      reasonsOf(coin(null, { circulating: null }), coin({ value: 5 }, { circulating: null })),
    ).toEqual([]);
    expect(
      reasonsOf(
        coin(null, { circulating: null }),
        coin({ value: FIRST_READ_CEILING * 10 }, { circulating: null }),
      ),
    ).toEqual([
      'the supply 1.000000e+16 is more than 1.000000e+15, the most any token without a known figure may read',
    ]);
  });

  test('a block timestamp of 0, one older than the bound, or one ahead of the clock is kept out', () => {
    expect(reasonsOf(coin(null), coin({ value: 5, time: '1970-01-01T00:00:00Z' }))).toEqual([
      'the block time 1970-01-01T00:00:00Z is no time (a node answering 0)',
    ]);
    expect(reasonsOf(coin(null), coin({ value: 5, time: '2026-11-26T05:59:59Z' }))).toEqual([
      "the block time 2026-11-26T05:59:59Z is more than 24 h before the run's clock (2026-11-27T06:00:00.000Z)",
    ]);
    expect(reasonsOf(coin(null), coin({ value: 5, time: '2026-11-27T06:10:01Z' }))).toEqual([
      "the block time 2026-11-27T06:10:01Z is ahead of the run's clock (2026-11-27T06:00:00.000Z)",
    ]);
    // A tighter configured bound is applied.
    expect(
      reasonsOf(coin(null), coin({ value: 5, time: '2026-11-27T02:00:00Z' }), {
        ...LIMITS,
        max_block_age_hours: 2,
      }),
    ).toHaveLength(1);
  });
});

describe('a later read', () => {
  const was = coin({ value: 900_000, block: 100, time: '2026-11-27T04:00:00Z' });

  test('at a later block is published; an earlier block or time, or other decimals, is kept out with the previous value', () => {
    const later = coin({ value: 950_000, block: 120, time: '2026-11-27T05:00:00Z' });
    expect(reasonsOf(was, later)).toEqual([]);
    expect(
      reasonsOf(was, coin({ value: 950_000, block: 90, time: '2026-11-27T05:00:00Z' })),
    ).toEqual(['block 90 is not after the recorded block 100']);
    expect(
      reasonsOf(was, coin({ value: 950_000, block: 120, time: '2026-11-27T03:00:00Z' })),
    ).toEqual(['the block time goes back from the recorded 2026-11-27T04:00:00Z']);
    const other = coin({ value: 950_000, block: 120, decimals: 18 });
    expect(reasonsOf(was, other)).toEqual(['decimals 18 differs from the recorded 6']);
    // The previous read stays, the rest of the file is published.
    const withName = other.replace('id: tusd', 'id: tusd\nname: Test USD');
    const { publish } = checkPlausible([change(was, withName)], LIMITS, CLOCK);
    expect(parse(publish[0]!.after)).toEqual(
      parse(was.replace('id: tusd', 'id: tusd\nname: Test USD')),
    );
  });

  test('the value it replaces counts as a known figure', () => {
    const unknown = { circulating: null };
    const before = coin({ value: 900_000, block: 100 }, unknown);
    expect(reasonsOf(before, coin({ value: 8_000_000, block: 120 }, unknown))).toEqual([]);
    expect(reasonsOf(before, coin({ value: 9_000_001, block: 120 }, unknown))).toEqual([
      'the supply 9,000,001 is more than 10 × the value it replaces (900,000)',
    ]);
  });
});

test('an asset read that finds no code at the address is kept out, and said to be no code', () => {
  const asset = (technical: string) =>
    [
      'tfin: TEST',
      'lifecycle_status: active',
      'validation:',
      '  evidence:',
      '    technical:',
      technical,
      '',
    ].join('\n');
  const before = asset(
    `      - { ledger: ETH, contract_address: "${ADDRESS}", method: explorer, source: a, supply: 1000, as_of: "2026-11-01" }`,
  );
  const after = asset(
    [
      `      - { ledger: ETH, contract_address: "${ADDRESS}", method: explorer, source: a, supply: 1000, as_of: "2026-11-01" }`,
      `      - { ledger: ETH, contract_address: "${ADDRESS}", method: rpc, source: null, supply: null, as_of: "2026-11-27", chain_id: 1, block_number: 100, block_time: "2026-11-27T05:00:00Z", code: false }`,
    ].join('\n'),
  );
  const { refused } = checkPlausible(
    [{ path: 'data/assets/TEST.yaml', before, after }],
    LIMITS,
    CLOCK,
  );
  expect(refused).toEqual([
    {
      path: 'data/assets/TEST.yaml',
      at: `technical ETH ${ADDRESS.toLowerCase()} supply`,
      read: 'no code, block 100 at 2026-11-27T05:00:00Z',
      reasons: ['no contract code at the address at this block'],
    },
  ]);
});

test('the refresh applies the shared text rules: a file whose text would hold ESC, U+202E or NULs is kept out whole', () => {
  const bad = change(
    coin(null),
    coin(null).replace('id: tusd', 'id: tusd\nname: "Evil\\e \\u202E"'),
  );
  const nuls = change(
    coin(null),
    coin(null).replace('id: tusd', `id: tusd\nname: "${'\\0'.repeat(41)}"`),
  );
  const fine = change(coin(null), coin(null).replace('id: tusd', 'id: tusd\nname: Test USD'));
  const { publish, refused } = keepOutUnsafeText([bad, nuls, fine]);
  expect(publish).toEqual([fine]);
  expect(refused.map((r) => [r.at, r.reasons[0]])).toEqual([
    ['name', "holds the control character U+001B at character 5: the file's change is left out"],
    ['name', "holds the control character U+0000 at character 1: the file's change is left out"],
  ]);
});

describe('the configuration', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const guards = readRefreshConfig('deploy/data-refresh.yaml').guards;
  const withBounds = (plausibility: unknown) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-refresh-config-'));
    dirs.push(dir);
    const file = path.join(dir, 'refresh.json');
    writeFileSync(
      file,
      JSON.stringify({ guards: { ...guards, plausibility }, sources: [{ importer: 'onchain' }] }),
    );
    return () => readRefreshConfig(file);
  };

  test('the deployed file tightens every bound', () => {
    for (const [k, bound] of Object.entries(PLAUSIBILITY_BOUNDS))
      expect(guards.plausibility[k as keyof typeof PLAUSIBILITY_BOUNDS]).toBeLessThanOrEqual(bound);
  });

  test('may tighten the bounds, never loosen them or switch a check off', () => {
    expect(
      withBounds({ max_decimals: 18, max_supply_multiple: 2, max_block_age_hours: 1 })().guards
        .plausibility,
    ).toEqual({
      max_decimals: 18,
      max_supply_multiple: 2,
      max_block_age_hours: 1,
    });
    expect(withBounds({ ...PLAUSIBILITY_BOUNDS, max_decimals: 255 })).toThrow(
      'at guards.plausibility.max_decimals: may tighten the bound, not loosen it: at most 36',
    );
    expect(withBounds({ ...PLAUSIBILITY_BOUNDS, max_supply_multiple: 1e9 })).toThrow(
      'may tighten the bound, not loosen it: at most 10',
    );
    expect(withBounds({ ...PLAUSIBILITY_BOUNDS, max_block_age_hours: 1e6 })).toThrow(
      'may tighten the bound, not loosen it: at most 24',
    );
    expect(withBounds({ ...PLAUSIBILITY_BOUNDS, enabled: false })).toThrow(/enabled/);
    expect(withBounds(false)).toThrow(/guards\.plausibility/);
    // Absent: the loosest bounds, not no checks.
    expect(
      refreshConfig.parse({
        guards: { max_change_pct: guards.max_change_pct },
        sources: [{ importer: 'onchain' }],
      }).guards.plausibility,
    ).toEqual(PLAUSIBILITY_BOUNDS);
  });
});
