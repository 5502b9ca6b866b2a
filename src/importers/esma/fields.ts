// Reading one cell of an ESMA register row. Each reader states what ESMA writes and refuses
// anything else with the row and column, so a change in ESMA's format stops the import instead
// of reaching the data. Known spellings are read on purpose, never guessed: blank or "n/a" for
// no date, "EL" for Greece, "SL" for Slovenia (in two CASPS rows), " I " or "|" between items.
import { isValidLei } from '../../domain/identifiers.ts';
import { ImportError } from '../shared/errors.ts';
import type { CsvRow } from '../shared/csv.ts';
import { isCalendarDate } from '../../lib/calendar-date.ts';

export class Cells {
  readonly input: string;
  readonly row: CsvRow;
  /** The import report's notes: what was read on purpose that a reviewer should know. */
  readonly notes: string[];

  constructor(input: string, row: CsvRow, notes: string[]) {
    this.input = input;
    this.row = row;
    this.notes = notes;
  }

  fail(column: string, problem: string, expected: string): never {
    throw new ImportError({ input: this.input, row: this.row.row, column }, problem, expected);
  }

  /** Trimmed text with inner runs of spaces collapsed; null when blank. */
  text(column: string): string | null {
    const value = (this.row.cells[column] ?? '').replace(/\s+/g, ' ').trim();
    return value === '' ? null : value;
  }

  required(column: string, what: string): string {
    return this.text(column) ?? this.fail(column, 'is empty', what);
  }

  /** DD/MM/YYYY → YYYY-MM-DD; blank and "n/a" mean no date. */
  date(column: string): string | null {
    const raw = this.text(column);
    if (raw === null || /^n\/a$/i.test(raw)) return null;
    const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(raw);
    const iso = m ? `${m[3]}-${m[2]}-${m[1]}` : null;
    if (!iso || !isCalendarDate(iso))
      this.fail(column, `"${raw}" is not a date`, 'a date written DD/MM/YYYY, e.g. 09/04/2025');
    return iso;
  }

  requiredDate(column: string): string {
    return (
      this.date(column) ??
      this.fail(column, 'is empty', 'a date written DD/MM/YYYY, e.g. 09/04/2025')
    );
  }

  /**
   * An LEI as ESMA prints it, or null when blank. A failed ISO 17442 check is kept as published
   * (ESMA's register is the record) and noted. A value that is not even LEI-shaped (ESMA has
   * 19- and 21-character ones) is refused when `strict`, else read as null and noted: the
   * caller keeps the text as `lei_as_published`, never a corrected guess.
   */
  lei(column: string, strict = true): string | null {
    const raw = this.text(column);
    if (raw === null) return null;
    if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(raw)) {
      if (strict)
        this.fail(
          column,
          `"${raw}" is not an LEI`,
          '20 characters: 18 letters or digits, then 2 digits',
        );
      this.notes.push(
        `row ${this.row.row}: "${raw}" is not an LEI; read as no LEI, kept as lei_as_published`,
      );
      return null;
    }
    if (!isValidLei(raw))
      this.notes.push(
        `row ${this.row.row}: LEI ${raw} fails its ISO 17442 check digits; kept as ESMA publishes it`,
      );
    return raw;
  }

  /** A member state of the EEA: ISO 3166 alpha-2, with Greece also written EL. */
  state(column: string): string {
    const raw = this.required(column, 'an EEA member state code such as AT');
    return this.stateCode(column, raw);
  }

  stateCode(column: string, raw: string): string {
    const code = STATE_SPELLINGS[raw.toUpperCase()] ?? raw.toUpperCase();
    if (!EEA_STATES.includes(code))
      this.fail(
        column,
        `"${raw}" is not an EEA member state`,
        `one of ${EEA_STATES.join(', ')} (EL is read as GR)`,
      );
    return code;
  }

  /** A list written with "|" (or " I ") between items; blank items are dropped. */
  list(column: string, separator = /\s*\|\s*|\s+I\s+/): string[] {
    const raw = this.row.cells[column] ?? '';
    return raw
      .split(separator)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  }

  /** Host states of a passport list, sorted, without duplicates. */
  states(column: string): string[] {
    return [...new Set(this.list(column).map((s) => this.stateCode(column, s)))].sort();
  }
}

/** The EU-27 and the EEA's Iceland, Liechtenstein and Norway, as ESMA's files list them. */
export const EEA_STATES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

/** Spellings ESMA's files use for a state: EL is Greece's EU code; SL stands for Slovenia in CASPS. */
const STATE_SPELLINGS: Record<string, string> = { EL: 'GR', SL: 'SI' };
