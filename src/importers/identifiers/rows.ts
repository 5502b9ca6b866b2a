// identifiers/identifiers.csv: one identifier a row (ISIN, CUSIP, issuer LEI, SEC CIK) with the
// subject it belongs to and where it was read. Damaged rows stop the import with the file, row
// and column named.
import { readCsv } from '../shared/csv.ts';
import { cell, requireColumns } from '../shared/csv-cells.ts';
import type { SourceInput } from '../shared/input.ts';

export type IdentifierType = 'isin' | 'cusip' | 'lei' | 'cik';

export interface IdentifierRow {
  row: number;
  subject: string;
  type: IdentifierType;
  identifier: string;
  source_kind: string;
  /** A page URL, or the repository (`owner/name`) of a file. */
  source: string;
  path: string | null;
  commit: string | null;
}

export const IDENTIFIER_COLUMNS = [
  'subject',
  'identifier_type',
  'identifier',
  'source_kind',
  'source_url_or_repo',
  'source_path',
  'source_commit',
] as const;

const TYPES: [RegExp, IdentifierType][] = [
  [/^ISIN$/, 'isin'],
  [/^CUSIP$/, 'cusip'],
  [/^LEI( \(issuer\))?$/, 'lei'],
  [/^SEC CIK$/, 'cik'],
];

export function readIdentifierRows(input: SourceInput): IdentifierRow[] {
  const table = readCsv(input);
  requireColumns(table, IDENTIFIER_COLUMNS, 'the identifiers file (identifiers.csv)');
  return table.rows.map((row) => {
    const c = cell(table, row);
    const given = c.required('identifier_type', 'ISIN, CUSIP, LEI (issuer) or SEC CIK');
    const type = TYPES.find(([pattern]) => pattern.test(given))?.[1];
    if (!type)
      c.fail(
        'identifier_type',
        `"${given}" is not an identifier type`,
        'ISIN, CUSIP, LEI (issuer) or SEC CIK',
      );
    const commit = c.text('source_commit');
    if (commit !== null && !/^[0-9a-f]{40}$/.test(commit))
      c.fail('source_commit', `"${commit}" is not a commit id`, 'the 40-hex commit id, or nothing');
    return {
      row: row.row,
      subject: c.required('subject', 'the product or issuer the identifier belongs to'),
      type: type!,
      identifier: c.required('identifier', 'the identifier as published').toUpperCase(),
      source_kind: c.required('source_kind', 'what kind of source gave the identifier'),
      source: c.required('source_url_or_repo', 'the page URL or the source repository'),
      path: c.text('source_path'),
      commit,
    };
  });
}
