// CSV source files (ESMA's registers, the sheets and lists the other importers read) as rows of
// named cells. csv-parse reads RFC 4180 strictly (quoted commas and newlines, no relaxed quotes or
// column counts); its errors become ImportErrors naming the file, row and column. ESMA ends every
// CASPS line with a comma: the unnamed last column is dropped, and refused if it ever holds a value.
import { CsvError, parse } from 'csv-parse/sync';
import { ImportError } from './errors.ts';
import { decodeUtf8, type SourceInput } from './input.ts';
import { refuseUnsafeText } from './text-guard.ts';

export interface CsvRow {
  /** 1-based record number in the file, the header being row 1. */
  row: number;
  cells: Record<string, string>;
}

export interface CsvTable {
  input: string;
  header: string[];
  rows: CsvRow[];
}

type Input = Pick<SourceInput, 'name' | 'bytes'>;

/** csv-parse's error codes, in the words of the editor who has to fix the file. */
const PROBLEMS: Record<string, [problem: string, expected: string]> = {
  CSV_QUOTE_NOT_CLOSED: [
    'ends inside a quoted field',
    'every quoted field closed by a quote: the file looks truncated (download it again)',
  ],
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: [
    'has a row with a different number of fields than the header',
    'as many fields on every row as the header has columns (the file may be truncated or edited)',
  ],
  CSV_INVALID_CLOSING_QUOTE: [
    'has a quote inside a quoted field that is not doubled',
    'a quote inside a quoted field written twice ("")',
  ],
};

function csvProblem(input: string, error: CsvError): ImportError {
  const at = error as CsvError & { records?: number; lines?: number; column?: number | string };
  const [problem, expected] = PROBLEMS[error.code] ?? [
    `is not well-formed CSV (${error.message})`,
    'RFC 4180 CSV as ESMA publishes it',
  ];
  return new ImportError(
    {
      input,
      row: at.records === undefined ? undefined : at.records + 1,
      column: typeof at.column === 'number' ? at.column + 1 : undefined,
    },
    `${problem} (line ${at.lines ?? '?'} of the file)`,
    expected,
  );
}

export function readCsv(input: Input): CsvTable {
  const text = decodeUtf8(input);
  let records: string[][];
  try {
    records = parse(text, { bom: true }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw csvProblem(input.name, error);
    throw error;
  }
  if (!records.length)
    throw new ImportError({ input: input.name }, 'is empty', 'a header row naming the columns');
  const header = records[0]!.map((h) => h.trim());
  const trailing = header.at(-1) === '' ? header.length - 1 : -1;
  const named = trailing === -1 ? header : header.slice(0, trailing);
  const rows = records.slice(1).map((record, i) => {
    const row = i + 2;
    if (trailing !== -1 && record[trailing]!.trim() !== '')
      throw new ImportError(
        { input: input.name, row, column: trailing + 1 },
        `holds "${record[trailing]}" in the unnamed last column`,
        'an empty last column (ESMA ends each line with a comma)',
      );
    const cells: Record<string, string> = {};
    named.forEach((name, k) => {
      // Every cell, read or not, is refused for control characters and formulas; only what is
      // written must also fit the length bound (refuseUnsafeTextIn on the written values).
      refuseUnsafeText(
        record[k]!,
        { input: input.name, row, column: name },
        { checkLength: false },
      );
      cells[name] = record[k]!;
    });
    return { row, cells };
  });
  return { input: input.name, header: named, rows };
}
