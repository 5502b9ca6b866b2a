// Issue #37: the registry list's query index (src/api/registry-query.ts, text-index.ts) gives
// exactly the answers of the scan it replaced (test/helpers/linear-select.ts: every row tested,
// `q=` ranked by MiniSearch) — same records, same order — for text queries alone and with
// filters, `changed_since=` and `sort=`, over the real registry and a generated one of 20,000; and
// the index written by the build reads back as made.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import {
  buildRegistryQueryIndex,
  selectRows,
  useRegistryQueryIndex,
} from '../../src/api/registry-list.ts';
import { buildDataset } from '../../src/dataset/artifact.ts';
import type { IndexRow } from '../../src/dataset/registry-index.ts';
import {
  readRegistryQueryFile,
  writeRegistryQueryFile,
} from '../../src/dataset/registry-query-file.ts';
import { linearSelect } from '../helpers/linear-select.ts';
import { random } from '../helpers/random.ts';

const loaded = await loadData(process.cwd(), '2026-11-22');
const rows = buildDataset(
  { ...loaded, codes: loaded.codes!, datasetDate: loaded.datasetDate! },
  'test',
  new Date(),
).registry.rows;

/** Search texts as users type them: words of the rows, their beginnings, pairs, typos. */
function queries(of: readonly IndexRow[], count: number, rnd: () => number): string[] {
  const words = [
    ...new Set(
      of.flatMap((r) =>
        `${r.name} ${r.search?.issuer ?? ''} ${r.search?.kind ?? ''} ${r.search?.about ?? ''}`.split(
          /[^\p{L}\p{N}]+/u,
        ),
      ),
    ),
  ].filter((w) => w.length >= 2);
  const pick = () => words[Math.floor(rnd() * words.length)]!;
  const typo = (w: string) => {
    const at = Math.floor(rnd() * w.length);
    return `${w.slice(0, at)}${'aeiou'[Math.floor(rnd() * 5)]}${w.slice(at + 1)}`;
  };
  const fixed = [
    'treasury',
    'Treasuries',
    'tresury',
    'SOCIÉTÉ GÉNÉRALE',
    'money market',
    'a',
    'i bond',
    'fund fund',
    '-',
    'zzzzqqq',
    of[0]!.tfin,
    of[3]!.name,
  ];
  const made = Array.from({ length: count }, (_, i) => {
    const w = pick();
    return [
      w,
      w.slice(0, 2 + (i % 4)),
      `${w} ${pick().slice(0, 3)}`,
      typo(w),
      `${pick()} ${pick()} ${pick()}`,
    ][i % 5]!;
  });
  return [...fixed, ...made];
}

/** Filters, sorts and dates over the values the rows hold. */
function filterSets(of: readonly IndexRow[]): Record<string, string>[] {
  const withLei = of.find((r) => r.lei)?.lei ?? 'NONE';
  const withIsin = of.find((r) => r.isin)?.isin ?? 'NONE';
  const dates = of.flatMap((r) => (r.last_changed ? [r.last_changed] : [])).sort();
  const mid = dates[Math.floor(dates.length / 2)]!;
  return [
    {},
    { asset_class: of[0]!.asset_class },
    { ledger: 'ETH' },
    { ledger: 'ETH', asset_class: 'FUND' },
    { changed_since: mid },
    { changed_since: dates[0]! },
    { changed_since: '2099-01-01' },
    { changed_since: mid, kind: 'series' },
    { validation_level: 'L2' },
    { validation_level: 'L1', jurisdiction: of[0]!.jurisdiction ?? 'US' },
    { regime: 'unknown' },
    { lei: withLei },
    { isin: withIsin },
    { tfic: 'FUND.MMFD', lifecycle_status: 'active' },
    { sort: '-risk' },
    { sort: 'amount_usd', ledger: 'SOL' },
    { sort: '-name', changed_since: mid },
    { mica_authorisation: 'not_applicable', sort: '-as_of' },
    { asset_class: 'NONE' },
  ];
}

/** Compares the index with the scan for every query under every filter set. */
function compare(of: readonly IndexRow[], texts: readonly string[]): number {
  const core = { registry: { rows: of } } as Parameters<typeof selectRows>[0];
  let nonEmpty = 0;
  for (const filters of filterSets(of)) {
    for (const q of [undefined, ...texts]) {
      const query = { ...filters, ...(q ? { q } : {}) };
      const expected = linearSelect(of, query).map((r) => r.tfin);
      expect(
        selectRows(core, query).map((r) => r.tfin),
        JSON.stringify(query),
      ).toEqual(expected);
      if (expected.length) nonEmpty++;
    }
  }
  return nonEmpty;
}

/** `count` rows from the real ones, as bench/scaling.ts makes them: new TFINs, names and ledgers. */
function generatedRows(count: number, rnd: () => number): IndexRow[] {
  const ledgers = ['ETH', 'POL', 'STR', 'SOL', 'AVA', 'ARB', 'BAS', 'OPT'];
  const levels = ['unverified', 'L1', 'L2', 'L3'] as const;
  return Array.from({ length: count }, (_, i) => {
    const t = structuredClone(rows[i % rows.length]!);
    const ledger = ledgers[Math.floor(i / rows.length) % ledgers.length]!;
    const tfin = `${t.tfin.slice(0, 10)}${ledger}-${String(i).padStart(9, '0')}`;
    const name = `${t.name} (synthetic ${i + 1})`;
    const day = 1 + Math.floor(rnd() * 28);
    return {
      ...t,
      tfin,
      name,
      ledgers: [ledger, ...t.ledgers.slice(1)],
      validation_level: levels[Math.floor(rnd() * 4)]!,
      last_changed: `202${Math.floor(rnd() * 7)}-0${1 + Math.floor(rnd() * 9)}-${String(day).padStart(2, '0')}`,
      ...(t.search
        ? {
            search: {
              ...t.search,
              names: [name, ...t.search.names.split('\n').slice(1)].join('\n'),
              ids: [tfin, ...t.search.ids.split('\n').slice(1)].join('\n'),
            },
          }
        : {}),
    };
  }).sort((a, b) => (a.tfin < b.tfin ? -1 : 1));
}

describe('the registry query index answers as the scan did', { timeout: 600_000 }, () => {
  it('over the real registry: the same records in the same order', () => {
    expect(compare(rows, queries(rows, 150, random(1)))).toBeGreaterThan(500);
  });

  it('over a generated registry of 20,000 (many records alike: ties, long postings)', () => {
    const rnd = random(2);
    const generated = generatedRows(20_000, rnd);
    const texts = [...queries(generated, 40, rnd), 'synthetic 1234', 'synthetic 99', 'synthetic'];
    expect(compare(generated, texts)).toBeGreaterThan(100);
  });

  it('reads back from its file as made, and serves the rows it was made from only', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'registry-query-'));
    try {
      const file = path.join(dir, 'registry-query.bin');
      const made = buildRegistryQueryIndex(rows);
      writeRegistryQueryFile(file, made);
      const read = readRegistryQueryFile(file);
      const plain = (x: unknown) =>
        JSON.stringify(x, (_k, v: unknown) =>
          ArrayBuffer.isView(v) ? Array.from(v as Uint32Array) : v,
        );
      expect(plain(read)).toBe(plain(made));
      // Another list (one row fewer) is refused: its positions would select other records.
      expect(() => useRegistryQueryIndex(rows.slice(1), read)).toThrow(/does not match/);
      const copy = [...rows];
      useRegistryQueryIndex(copy, read);
      const core = { registry: { rows: copy } } as Parameters<typeof selectRows>[0];
      expect(selectRows(core, { q: 'treasury', ledger: 'ETH' })).toEqual(
        linearSelect(rows, { q: 'treasury', ledger: 'ETH' }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
