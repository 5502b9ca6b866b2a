// The files of ESMA's interim MiCA register, told apart by their header. A header is matched
// to the kind whose columns it shares most; a matched header that lacks one of that kind's
// columns is refused, naming the column.
import { ImportError } from '../shared/errors.ts';
import type { CsvTable } from '../shared/csv.ts';

export type RegisterKind = 'casps' | 'emt' | 'art' | 'non-compliant';

const ESMA_FILES = 'https://www.esma.europa.eu/sites/default/files/2024-12/';

export interface KindSpec {
  kind: RegisterKind;
  /** ESMA's file name under ESMA_FILES, where ESMA replaces the file in place. */
  file: string;
  title: string;
  columns: readonly string[];
  /** ESMA's canonical URL of the file, recorded as the source of every import. */
  url: string;
}

const ENTITY = [
  'ae_competentAuthority',
  'ae_homeMemberState',
  'ae_lei_name',
  'ae_lei',
  'ae_lei_cou_code',
  'ae_commercial_name',
];

/** The columns the token-issuer files (EMTWP, ARTZZ) share before their own. */
const ISSUER = [
  ...ENTITY,
  'ae_address',
  'ae_website',
  'ac_authorisationNotificationDate',
  'ac_authorisationEndDate',
];

const SPECS: Omit<KindSpec, 'url'>[] = [
  {
    kind: 'casps',
    file: 'CASPS.csv',
    title: 'crypto-asset service providers (authorisations and Art. 60 notifications)',
    columns: [
      ...ENTITY,
      'ae_address',
      'ae_website',
      'ae_website_platform',
      'ac_authorisationNotificationDate',
      'ac_authorisationEndDate',
      'ac_serviceCode',
      'ac_serviceCode_cou',
      'ac_comments',
      'ac_lastupdate',
    ],
  },
  {
    kind: 'emt',
    file: 'EMTWP.csv',
    title: 'e-money token white papers',
    columns: [
      ...ISSUER,
      'ae_exemption48_4',
      'ae_exemption48_5',
      'ae_authorisation_other_emt',
      'ae_DTI_FFG',
      'ae_DTI',
      'wp_url',
      'wp_authorisationNotificationDate',
      'wp_comments',
      'wp_lastupdate',
    ],
  },
  {
    kind: 'art',
    file: 'ARTZZ.csv',
    title: 'asset-referenced token issuers',
    columns: [
      ...ISSUER,
      'ae_credit_institution',
      'wp_url',
      'wp_authorisationNotificationDate',
      'wp_url_cou',
      'wp_comments',
      'wp_lastupdate',
    ],
  },
  {
    kind: 'non-compliant',
    file: 'NCASP.csv',
    title: 'non-compliant entities',
    // ESMA spells the infringement column "ae_infrigment".
    columns: [
      ...ENTITY,
      'ae_website',
      'ae_infrigment',
      'ae_reason',
      'ae_decision_date',
      'ae_comments',
      'ae_lastupdate',
    ],
  },
];

export const KINDS: readonly KindSpec[] = SPECS.map((s) => ({ ...s, url: ESMA_FILES + s.file }));

/** The kind of a register file, from its header; refuses a header that fits none or lacks a column. */
export function kindOf(table: CsvTable): KindSpec {
  const present = new Set(table.header);
  const score = (k: KindSpec) =>
    k.columns.filter((c) => present.has(c)).length / k.columns.length -
    table.header.filter((c) => !k.columns.includes(c)).length / 100;
  const best = [...KINDS].sort((a, b) => score(b) - score(a))[0]!;
  const distinctive = best.columns.filter((c) => !ENTITY.includes(c));
  if (!distinctive.some((c) => present.has(c)) || score(best) < 0.6)
    throw new ImportError(
      { input: table.input, row: 1 },
      `has a header that is none of ESMA's register files (${table.header.slice(0, 4).join(', ')}, …)`,
      `the header of one of ${KINDS.map((k) => k.file).join(', ')}`,
    );
  const missing = best.columns.filter((c) => !present.has(c));
  if (missing.length)
    throw new ImportError(
      { input: table.input, row: 1, column: missing[0] },
      `lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${best.file}`,
      `the header of ${best.file}: ${best.columns.join(', ')}`,
    );
  const extra = table.header.filter((c) => !best.columns.includes(c));
  if (extra.length)
    throw new ImportError(
      { input: table.input, row: 1, column: extra[0] },
      `has column${extra.length > 1 ? 's' : ''} ${extra.join(', ')}, unknown in ${best.file}`,
      `the header of ${best.file} as the importer knows it (update src/importers/esma/kinds.ts after reading what the new column holds)`,
    );
  return best;
}
