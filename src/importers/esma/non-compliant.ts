// NCASP.csv → entities ESMA lists as non-compliant (providing crypto-asset services without
// authorisation). Most have no LEI and several decisions may name one entity, so no duplicate
// rule applies beyond collapsing identical rows.
import type { NonCompliantEntity } from '../../domain/mica-register.ts';
import type { CsvTable } from '../shared/csv.ts';
import { Cells } from './fields.ts';
import { distinctRows, type Notes } from './rows.ts';
import { yesNo } from './white-papers.ts';

export function nonCompliantEntities(table: CsvTable, notes: Notes): NonCompliantEntity[] {
  return distinctRows(table, notes)
    .map((r) => {
      const cells = new Cells(table.input, r, notes);
      const reason = cells.text('ae_reason');
      return {
        lei: cells.lei('ae_lei'),
        name: cells.required('ae_lei_name', 'the name of the entity'),
        commercial_name: cells.text('ae_commercial_name'),
        home_member_state: cells.state('ae_homeMemberState'),
        competent_authority: cells.required('ae_competentAuthority', 'the competent authority'),
        websites: cells.list('ae_website'),
        infringement: yesNo(cells, 'ae_infrigment'),
        reason: reason === 'None' ? null : reason,
        decision_date: cells.requiredDate('ae_decision_date'),
        last_update: cells.date('ae_lastupdate'),
        comment: cells.text('ae_comments'),
      };
    })
    .sort((a, b) => a.decision_date.localeCompare(b.decision_date) || a.name.localeCompare(b.name));
}
