// The GTDS level follows each criterion's own level, never its place in the list: every
// combination of the facts the criteria read gives the documented level, with the criteria in
// their published order and in every rotation and reversal of it.
import { describe, expect, it } from 'vitest';
import { GTDS_CRITERIA, gtdsCompliance } from '../../src/dataset/derive.ts';
import type { AssetRecord } from '../../src/domain/asset.ts';

const LEVELS = ['unverified', 'L1', 'L2', 'L3'] as const;
const GRADES = ['A', 'B', 'C', 'D', 'E'];

/** The documented rule, written out independently of derive.ts. */
function documented(level: number, sources: number, grade: string, isin: boolean): string {
  const two = level >= 2 && sources >= 2 && ['A', 'B', 'C'].includes(grade);
  const three = two && level === 3 && sources >= 3 && ['A', 'B'].includes(grade) && isin;
  return three ? 'GTDS-3' : two ? 'GTDS-2' : level >= 1 ? 'GTDS-1' : 'GTDS-0';
}

const orders = [
  GTDS_CRITERIA,
  [...GTDS_CRITERIA].reverse(),
  ...GTDS_CRITERIA.map((_, i) => [...GTDS_CRITERIA.slice(i), ...GTDS_CRITERIA.slice(0, i)]),
];

describe('GTDS compliance level', () => {
  it('is the documented level for every combination, in every order of the criteria', () => {
    let checked = 0;
    for (const [rank, level] of LEVELS.entries())
      for (const sources of [0, 1, 2, 3, 4])
        for (const grade of GRADES)
          for (const isin of [true, false]) {
            // Only the fields the criteria read.
            const record = {
              validation: { level },
              sources: Array.from({ length: sources }, (_, i) => ({ id: `s${i}` })),
              identifiers: { isin: isin ? 'US0000000000' : null },
            } as unknown as AssetRecord;
            const expected = documented(rank, sources, grade, isin);
            for (const order of orders) {
              expect(gtdsCompliance(record, grade, order).level).toBe(expected);
              checked++;
            }
            // The published list keeps its order in the profile.
            expect(gtdsCompliance(record, grade).criteria.map((c) => c.id)).toEqual(
              GTDS_CRITERIA.map((c) => c.id),
            );
          }
    expect(checked).toBe(4 * 5 * 5 * 2 * orders.length);
  });
});
