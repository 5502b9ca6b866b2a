// EMTWP.csv and ARTZZ.csv → token issuers. A row is one white paper; the issuer is its LEI
// (required: issuers are counted by LEI). Duplicate rule: an LEI may not carry two names or two
// home member states; identical rows are collapsed.
import type { ArtIssuer, EmtIssuer, EmtToken } from '../../domain/mica-register.ts';
import { byStateAndName } from './casps.ts';
import type { CsvTable } from '../shared/csv.ts';
import { Cells } from './fields.ts';
import { distinctRows, refuseSecondHome, type Notes } from './rows.ts';

function issuerOf(cells: Cells) {
  return {
    lei:
      cells.lei('ae_lei') ??
      cells.fail('ae_lei', 'is empty', 'the LEI of the issuer (issuers are counted by LEI)'),
    name: cells.required('ae_lei_name', 'the legal name of the issuer'),
    commercial_name: cells.text('ae_commercial_name'),
    home_member_state: cells.state('ae_homeMemberState'),
    competent_authority: cells.required('ae_competentAuthority', 'the competent authority'),
    authorised: cells.date('ac_authorisationNotificationDate'),
    authorisation_ended: cells.date('ac_authorisationEndDate'),
  };
}

function paperOf(cells: Cells) {
  return {
    url: cells.text('wp_url'),
    notified: cells.date('wp_authorisationNotificationDate'),
    last_update: cells.date('wp_lastupdate'),
    comment: cells.text('wp_comments'),
  };
}

/** One DTI a line or "|"-item, optionally followed by its ledger in brackets: "TD3BGWM5Z (Ethereum)". */
function dtis(cells: Cells): EmtToken['dti'] {
  return cells.list('ae_DTI', /\s*[|\n]\s*/).map((item) => {
    const m = /^([0-9A-Z]{9})(?:\s*\((.+)\))?$/.exec(item);
    if (!m)
      cells.fail('ae_DTI', `"${item}" is not a DTI`, 'DTIs of 9 characters, separated by "|"');
    return { code: m[1]!, ledger: m[2] ?? null };
  });
}

function dtiFfg(cells: Cells): string | null {
  const value = cells.text('ae_DTI_FFG');
  if (value !== null && !/^[0-9A-Z]{9}$/.test(value))
    cells.fail('ae_DTI_FFG', `"${value}" is not a DTI`, 'a DTI of 9 characters, or nothing');
  return value;
}

type Issuer = ReturnType<typeof issuerOf>;

/** The rows of each LEI, in file order, after the duplicate rule. */
function byIssuer<I extends Issuer, P>(
  table: CsvTable,
  notes: Notes,
  read: (cells: Cells) => { issuer: I; paper: P },
): { issuer: I; papers: P[] }[] {
  const rows = distinctRows(table, notes).map((r) => {
    const cells = new Cells(table.input, r, notes);
    return { cells, ...read(cells) };
  });
  refuseSecondHome(rows, (r) => [r.issuer.lei, r.issuer.home_member_state, r.cells], notes, true);
  return [...Map.groupBy(rows, (r) => r.issuer.lei).values()]
    .map((group) => ({ issuer: group[0]!.issuer, papers: group.map((r) => r.paper) }))
    .sort((a, b) => byStateAndName(a.issuer, b.issuer));
}

export function emtIssuers(table: CsvTable, notes: Notes): EmtIssuer[] {
  return byIssuer(table, notes, (cells) => ({
    issuer: { ...issuerOf(cells), institution: cells.text('ae_authorisation_other_emt') },
    paper: {
      dti_ffg: dtiFfg(cells),
      dti: dtis(cells),
      ...paperOf(cells),
      // Each row's own date: an issuer's rows may give different ones (one per token).
      authorised: cells.date('ac_authorisationNotificationDate'),
      authorisation_ended: cells.date('ac_authorisationEndDate'),
    },
  })).map(({ issuer, papers }) => ({
    ...issuer,
    authorised: earliest(papers.map((p) => p.authorised)) ?? issuer.authorised,
    tokens: papers,
  }));
}

const earliest = (dates: readonly (string | null)[]) =>
  dates.filter((d): d is string => d !== null).sort()[0] ?? null;

export function artIssuers(table: CsvTable, notes: Notes): ArtIssuer[] {
  return byIssuer(table, notes, (cells) => ({
    issuer: { ...issuerOf(cells), credit_institution: yesNo(cells, 'ae_credit_institution') },
    paper: { ...paperOf(cells), passported_to: cells.states('wp_url_cou') },
  })).map(({ issuer, papers }) => ({ ...issuer, white_papers: papers }));
}

/** ESMA writes Yes/No in any case, and N/A or nothing when it does not apply. */
export function yesNo(cells: Cells, column: string): boolean | null {
  const value = cells.text(column)?.toLowerCase() ?? null;
  if (value === null || value === 'n/a') return null;
  if (value === 'yes' || value === 'no') return value === 'yes';
  return cells.fail(column, `"${cells.text(column)}" is not Yes or No`, 'Yes, No, N/A or nothing');
}
