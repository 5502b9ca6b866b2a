// Row rules every register file shares: ESMA repeats some rows verbatim (collapsed, and said in
// the report), and an LEI must keep one home member state across its rows.
import type { CsvRow, CsvTable } from '../shared/csv.ts';
import type { Cells } from './fields.ts';

/** Lines for the import report: what was read on purpose that a reviewer should know. */
export type Notes = string[];

export function distinctRows(table: CsvTable, notes: Notes): CsvRow[] {
  const seen = new Map<string, number>();
  return table.rows.filter((r) => {
    const key = JSON.stringify(table.header.map((h) => r.cells[h]));
    const first = seen.get(key);
    if (first !== undefined) {
      notes.push(`row ${r.row} repeats row ${first} exactly: read once`);
      return false;
    }
    seen.set(key, r.row);
    return true;
  });
}

/**
 * Refuses an LEI listed under two home member states: one LEI is one legal entity. With
 * `oneName`, an LEI listed under two names is refused too (issuers are counted by LEI);
 * otherwise it is kept as two entities and said in the report.
 */
export function refuseSecondHome<T>(
  rows: readonly T[],
  pick: (row: T) => [lei: string | null, home: string, cells: Cells],
  notes: Notes,
  oneName = false,
): void {
  const homes = new Map<string, { home: string; row: number; names: Set<string> }>();
  for (const row of rows) {
    const [lei, home, cells] = pick(row);
    if (!lei) continue;
    const first = homes.get(lei);
    if (!first) {
      homes.set(lei, { home, row: cells.row.row, names: new Set([cells.text('ae_lei_name')!]) });
      continue;
    }
    if (first.home !== home)
      cells.fail(
        'ae_lei',
        `LEI ${lei} is listed with home member state ${home}, but with ${first.home} on row ${first.row}`,
        'one home member state per LEI (an LEI identifies one legal entity); report the row to ESMA',
      );
    const name = cells.text('ae_lei_name')!;
    if (oneName && !first.names.has(name))
      cells.fail(
        'ae_lei_name',
        `LEI ${lei} is listed as "${name}", but as "${[...first.names][0]}" on row ${first.row}`,
        'one issuer name per LEI (issuers are counted by LEI); report the row to ESMA',
      );
    first.names.add(name);
  }
  for (const [lei, { names }] of homes)
    if (names.size > 1)
      notes.push(
        `LEI ${lei} is listed under ${names.size} names (${[...names].join('; ')}): kept as ${names.size} entities`,
      );
}
