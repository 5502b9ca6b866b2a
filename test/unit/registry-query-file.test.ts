// The registry query index file (issue #37): a file cut short or damaged is refused with a
// message naming the fix, never read as a smaller index.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildRegistryQueryIndex,
  selectRows,
  useRegistryQueryIndex,
} from '../../src/api/registry-list.ts';
import type { IndexRow } from '../../src/dataset/registry-index.ts';
import {
  readRegistryQueryFile,
  writeRegistryQueryFile,
} from '../../src/dataset/registry-query-file.ts';

const row = (tfin: string, name: string, ledgers: string[], last_changed: string): IndexRow => ({
  tfin,
  name,
  asset_class: 'FUND',
  tfic: 'FUND.MMFD',
  ledgers,
  mica_status: 'financial_instrument',
  jurisdiction: 'US',
  validation_level: 'L1',
  risk: null,
  as_of: last_changed,
  last_changed,
});

const rows = [
  row('TFIN-FUND-ETH-2024-0001', 'Treasury Money Fund', ['ETH'], '2025-01-02'),
  row('TFIN-FUND-SOL-2024-0002', 'Gold Token', ['SOL', 'ETH'], '2026-03-04'),
  row('TFIN-FUND-STR-2024-0003', 'Euro Treasury Note', ['STR'], '2024-05-06'),
];
const dir = mkdtempSync(path.join(os.tmpdir(), 'registry-query-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('registry query file', () => {
  it('serves what it was made from: text, filters and change dates', () => {
    const file = path.join(dir, 'ok.bin');
    writeRegistryQueryFile(file, buildRegistryQueryIndex(rows));
    const served = [...rows];
    useRegistryQueryIndex(served, readRegistryQueryFile(file));
    const tfins = (q: Record<string, string>) =>
      selectRows({ registry: { rows: served } } as Parameters<typeof selectRows>[0], q).map((r) =>
        r.tfin.slice(-4),
      );
    expect(tfins({ q: 'treasury' })).toEqual(['0001', '0003']);
    expect(tfins({ ledger: 'ETH' })).toEqual(['0001', '0002']);
    expect(tfins({ changed_since: '2025-01-02' })).toEqual(['0002']);
    expect(tfins({ q: 'treasury', changed_since: '2024-01-01', ledger: 'STR' })).toEqual(['0003']);
    expect(tfins({ ledger: 'XRP' })).toEqual([]);
  });

  it('refuses a file cut short, naming the fix', () => {
    const file = path.join(dir, 'cut.bin');
    writeRegistryQueryFile(file, buildRegistryQueryIndex(rows));
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 16));
    expect(() => readRegistryQueryFile(file)).toThrow(/truncated or damaged: rebuild/);
    writeFileSync(file, bytes.subarray(0, 40));
    expect(() => readRegistryQueryFile(file)).toThrow(/truncated or damaged: rebuild/);
    writeFileSync(file, bytes.subarray(0, 2));
    expect(() => readRegistryQueryFile(file)).toThrow(/truncated/);
  });
});
