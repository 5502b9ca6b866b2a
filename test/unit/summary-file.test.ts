// The summaries file's reader (summary-file.ts): rows by index, joined with commas, and joined
// between a prefix and a suffix into one buffer (a page's body in a single allocation).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSummaries } from '../../src/dataset/summary-file.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tai-summaries-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes rows in the built layout: the rows, N+1 float64 LE offsets, a uint32 LE count. */
function summariesFile(rows: string[]): string {
  const bytes = rows.map((r) => Buffer.from(r));
  const index = Buffer.alloc((rows.length + 1) * 8 + 4);
  let offset = 0;
  index.writeDoubleLE(0, 0);
  bytes.forEach((b, i) => index.writeDoubleLE((offset += b.length), (i + 1) * 8));
  index.writeUInt32LE(rows.length, (rows.length + 1) * 8);
  const file = path.join(root, `summaries-${rows.length}.bin`);
  writeFileSync(file, Buffer.concat([...bytes, index]));
  return file;
}

describe('summaries file', () => {
  const rows = ['{"a":1}', '{"b":"é"}', '{}', '{"c":[1,2,3]}'];
  const summaries = openSummaries(summariesFile(rows));

  it('reads rows by index', () => {
    expect(summaries.count).toBe(rows.length);
    rows.forEach((r, i) => expect(summaries.read(i).toString()).toBe(r));
    expect(() => summaries.read(rows.length)).toThrow(RangeError);
  });

  it('joins rows in any order with commas', () => {
    expect(summaries.join([3, 0, 1]).toString()).toBe(`${rows[3]},${rows[0]},${rows[1]}`);
    expect(summaries.join([2]).toString()).toBe(rows[2]);
    expect(summaries.join([]).length).toBe(0);
  });

  it('joins between a prefix and a suffix: the same bytes as concatenating them', () => {
    const prefix = Buffer.from('{"data":[');
    const suffix = Buffer.from('],"meta":{"count":3}}');
    for (const indices of [[1, 3, 2], [0], []]) {
      const joined = summaries.join(indices, prefix, suffix);
      expect(joined.equals(Buffer.concat([prefix, summaries.join(indices), suffix]))).toBe(true);
    }
  });
});
