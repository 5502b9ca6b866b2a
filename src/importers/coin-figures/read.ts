// figures.csv (dated figures transcribed from issuers' reserve reports): the stablecoin rows that
// state tokens in circulation per an issuer's report, as dated circulating supply points with the
// report month, the precision of the transcribed value and where it was transcribed.
import { readCsv } from '../shared/csv.ts';
import { ImportError } from '../shared/errors.ts';
import type { SourceInput } from '../shared/input.ts';

export const CIRCULATION_METRIC = 'tokens in circulation per issuer reserve report';
const UNIT = 'USD billion (rounded as transcribed)';

const COLUMNS = [
  'family',
  'subject',
  'metric',
  'value',
  'unit',
  'as_of_or_period',
  'source_url',
  'source_publisher',
  'transcribed_in',
  'transcribed_path',
  'transcribed_line',
  'transcribed_commit',
];

export interface ReportPoint {
  symbol: string;
  value: number;
  /** The value is rounded to this many units (0.1 billion → 100000000). */
  precision: number;
  period: { start: string; end: string };
  /** The report's date: the last day of its month. */
  as_of: string;
  issuer_url: string;
  publisher: string;
  origin: { repository: string; path: string; line: number; commit: string };
  row: number;
}

export interface ReadFigures {
  points: ReportPoint[];
  /** Rows not used, with why (another family, another kind of figure). */
  skipped: string[];
  rows: number;
}

const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * `pages` gives an issuer's report page (by publisher) where a row points elsewhere for it
 * ("see file comment").
 */
export function readFigures(input: SourceInput, pages: ReadonlyMap<string, string>): ReadFigures {
  const table = readCsv(input);
  const missing = COLUMNS.filter((c) => !table.header.includes(c));
  if (missing.length)
    throw new ImportError(
      { input: table.input, row: 1, column: missing[0] },
      `has no column "${missing.join('", "')}"`,
      `dated-figures/figures.csv with the columns ${COLUMNS.join(', ')}`,
    );
  const points: ReportPoint[] = [];
  const skipped: string[] = [];
  for (const { row, cells } of table.rows) {
    const at = (column: string) => ({ input: table.input, row, column });
    if (cells['family'] !== 'stablecoin') {
      skipped.push(`row ${row}: ${cells['subject']} is a ${cells['family']} figure (not a coin's)`);
      continue;
    }
    if (cells['metric'] !== CIRCULATION_METRIC || cells['unit'] !== UNIT) {
      skipped.push(
        `row ${row}: ${cells['subject']} "${cells['metric']}" is not tokens in circulation from an issuer's report; not written`,
      );
      continue;
    }
    const text = cells['value']!.trim();
    if (!/^\d+(\.\d+)?$/.test(text))
      throw new ImportError(
        at('value'),
        `"${text}" is not a number`,
        'a number of billions, e.g. 77.0',
      );
    const decimals = text.split('.')[1]?.length ?? 0;
    const period = /^(\d{4})-(\d{2})$/.exec(cells['as_of_or_period']!.trim());
    const month = Number(period?.[2]);
    if (!period || month < 1 || month > 12)
      throw new ImportError(
        at('as_of_or_period'),
        `"${cells['as_of_or_period']}" is not a report month`,
        'the report month, written YYYY-MM',
      );
    const line = Number(cells['transcribed_line']);
    const commit = cells['transcribed_commit']!.trim();
    if (!Number.isInteger(line) || line < 1 || !/^[0-9a-f]{40}$/.test(commit))
      throw new ImportError(
        at(Number.isInteger(line) && line >= 1 ? 'transcribed_commit' : 'transcribed_line'),
        'does not say where the value was transcribed',
        'the transcription line (a positive number) and its 40-hex commit',
      );
    const given = cells['source_url']!.trim();
    const url = /^https:\/\//.test(given) ? given : pages.get(cells['source_publisher']!.trim());
    if (!url)
      throw new ImportError(
        at('source_url'),
        `"${given}" is not an https URL, and report_pages in data/codes/stablecoin-universe.yaml has none for "${cells['source_publisher']}"`,
        "the issuer's page of its reports, in the row or in report_pages",
      );
    const end = `${period[1]}-${period[2]}-${String(lastDay(Number(period[1]), month)).padStart(2, '0')}`;
    points.push({
      symbol: cells['subject']!.trim(),
      // Billions to units, rounded at the transcribed precision (no floating-point tail).
      value: Math.round(Number(text) * 10 ** decimals) * 10 ** (9 - decimals),
      precision: 10 ** (9 - decimals),
      period: { start: `${period[1]}-${period[2]}-01`, end },
      as_of: end,
      issuer_url: url,
      publisher: cells['source_publisher']!.trim(),
      origin: {
        repository: cells['transcribed_in']!.trim(),
        path: cells['transcribed_path']!.trim(),
        line,
        commit,
      },
      row,
    });
  }
  return { points, skipped, rows: table.rows.length };
}
