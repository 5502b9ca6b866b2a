// Cells of a captured CSV (csv-parse rows with named cells) as importers read them: a column
// required, a cell required or optional, and the row's origin (repository, path, line, commit),
// each failure an ImportError naming the file, row and column. Used by the coins and the
// defillama-adapters importers.
import type { CsvTable } from './csv.ts';
import { ImportError } from './errors.ts';

export interface RowOrigin {
  repository: string;
  path: string;
  /** Absent where the source gives the file but not the line (adapter rows built in code). */
  line?: number;
  commit: string;
}

export function requireColumns(table: CsvTable, columns: readonly string[], what: string): void {
  const missing = columns.filter((c) => !table.header.includes(c));
  if (missing.length)
    throw new ImportError(
      { input: table.input, row: 1, column: missing[0] },
      `has no column "${missing.join('", "')}"`,
      `${what} with the columns ${columns.join(', ')}`,
    );
}

export function cell(table: CsvTable, row: { row: number; cells: Record<string, string> }) {
  return {
    text: (column: string) => row.cells[column]!.trim() || null,
    required(column: string, expected: string): string {
      const value = row.cells[column]!.trim();
      if (!value)
        throw new ImportError({ input: table.input, row: row.row, column }, 'is empty', expected);
      return value;
    },
    fail(column: string, problem: string, expected: string): never {
      throw new ImportError({ input: table.input, row: row.row, column }, problem, expected);
    },
  };
}

export function originOf(c: ReturnType<typeof cell>): RowOrigin {
  const text = c.text('source_line');
  const line = text === null ? undefined : Number(text);
  if (line !== undefined && !(Number.isInteger(line) && line >= 1))
    c.fail('source_line', `"${text}" is not a line number`, 'a positive whole number, or nothing');
  const commit = c.required('source_commit', 'the 40-hex commit the row was read at');
  if (!/^[0-9a-f]{40}$/.test(commit))
    c.fail('source_commit', `"${commit}" is not a commit id`, 'the 40-hex commit id');
  return {
    repository: c.required('source_repo', 'the source repository, "owner/name"'),
    path: c.required('source_path', 'the path of the source file in its repository'),
    ...(line === undefined ? {} : { line }),
    commit,
  };
}

export const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function commitDate(c: ReturnType<typeof cell>): string {
  const date = c.required('source_commit_date', 'the date of the commit');
  if (!DATE.test(date)) c.fail('source_commit_date', `"${date}" is not a date`, 'YYYY-MM-DD');
  return date;
}
