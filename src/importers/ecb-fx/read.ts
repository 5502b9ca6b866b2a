// The ECB's euro foreign-exchange reference rates as the ECB publishes them: the CSV files
// (eurofxref.csv, one day, dates written "8 May 2026"; eurofxref-hist.csv, every day, dates written
// 2026-05-08, "N/A" where a currency had no rate) and the XML files (eurofxref-daily.xml,
// eurofxref-hist.xml: <Cube time="…"><Cube currency="USD" rate="1.1761"/>…</Cube>). Each rate is
// the units of the currency per euro.
import { parse } from 'csv-parse/sync';
import { ImportError } from '../shared/errors.ts';
import type { SourceInput } from '../shared/input.ts';

/** Units of each currency per euro, by ISO date, newest first. */
export type EcbRates = Map<string, Map<string, number>>;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function isoDate(text: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) : -1;
  if (!m || month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

function rate(input: string, row: number, column: string, text: string): number | null {
  if (text === '' || text === 'N/A') return null;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0))
    throw new ImportError(
      { input, row, column },
      `"${text}" is not a rate`,
      'a positive decimal number (units of the currency per euro), or N/A',
    );
  return value;
}

function fromCsv(input: SourceInput, text: string): EcbRates {
  const rows = parse(text, {
    relax_column_count: true,
    trim: true,
    skip_empty_lines: true,
  }) as string[][];
  const header = rows[0] ?? [];
  if (header[0] !== 'Date')
    throw new ImportError(
      { input: input.name, row: 1, column: 1 },
      `starts with "${header[0] ?? ''}"`,
      'the header of the ECB eurofxref CSV: Date, USD, JPY, …',
    );
  const rates: EcbRates = new Map();
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    const date = isoDate(cells[0] ?? '');
    if (!date)
      throw new ImportError(
        { input: input.name, row, column: 'Date' },
        `"${cells[0] ?? ''}" is not a date`,
        'a date written 2026-05-08 (eurofxref-hist.csv) or 08 May 2026 (eurofxref.csv)',
      );
    const day = new Map<string, number>();
    header.forEach((currency, c) => {
      if (c === 0 || currency === '') return;
      const value = rate(input.name, row, currency, cells[c] ?? '');
      if (value !== null) day.set(currency, value);
    });
    rates.set(date, day);
  });
  return rates;
}

function fromXml(input: SourceInput, text: string): EcbRates {
  const rates: EcbRates = new Map();
  const days = text.split(/<Cube\s+time=["']/).slice(1);
  if (!days.length)
    throw new ImportError(
      { input: input.name },
      'has no <Cube time="…"> element',
      'the ECB eurofxref XML: <Cube time="2026-05-08"><Cube currency="USD" rate="1.1761"/>…',
    );
  for (const day of days) {
    const date = /^(\d{4}-\d{2}-\d{2})["']/.exec(day)?.[1];
    const line = text.slice(0, text.indexOf(day)).split('\n').length;
    if (!date)
      throw new ImportError(
        { input: input.name, row: line },
        `has a Cube time that is not a date (${day.slice(0, 12)}…)`,
        'time="YYYY-MM-DD"',
      );
    const values = new Map<string, number>();
    for (const m of day.matchAll(/<Cube\s+currency=["']([A-Z]{3})["']\s+rate=["']([^"']*)["']/g)) {
      const value = rate(input.name, line, m[1]!, m[2]!);
      if (value !== null) values.set(m[1]!, value);
    }
    rates.set(date, values);
  }
  return rates;
}

/** The rates of an ECB file, CSV or XML (told by its first character). */
export function readEcbRates(input: SourceInput): EcbRates {
  const text = input.bytes.toString('utf8').replace(/^\uFEFF/, '');
  const rates = text.trimStart().startsWith('<') ? fromXml(input, text) : fromCsv(input, text);
  return new Map([...rates].sort(([a], [b]) => b.localeCompare(a)));
}
