// CASPS.csv → CASP entities. A row is one authorisation or Art. 60 notification; an entity (an
// LEI and its name: ESMA lists a few LEIs under two names, and counts them as two) may have
// several rows, which are merged. Duplicate rule: an LEI may not have two home member states (an
// LEI identifies one legal entity, and a CASP has one home state); identical rows are collapsed.
import type { CaspEntity, ServiceCode } from '../../domain/mica-register.ts';
import type { CsvTable } from '../shared/csv.ts';
import { Cells } from './fields.ts';
import { distinctRows, refuseSecondHome, type Notes } from './rows.ts';
import { serviceCodes } from './services.ts';

interface CaspRow {
  key: string;
  cells: Cells;
  entity: Omit<
    CaspEntity,
    'services' | 'passported_to' | 'authorised' | 'withdrawn' | 'last_update'
  >;
  services: ServiceCode[];
  passported_to: string[];
  date: string | null;
  end: string | null;
  last_update: string | null;
}

function readRow(cells: Cells): CaspRow {
  const lei = cells.lei('ae_lei', false);
  const published = lei === null ? cells.text('ae_lei') : null;
  const name = cells.required('ae_lei_name', 'the legal name of the entity');
  const home = cells.state('ae_homeMemberState');
  return {
    key: `${lei ?? '-'}|${name}`,
    cells,
    entity: {
      lei,
      ...(published && { lei_as_published: published }),
      name,
      commercial_name: cells.text('ae_commercial_name'),
      home_member_state: home,
      competent_authority: cells.required('ae_competentAuthority', 'the competent authority'),
    },
    services: serviceCodes(cells, 'ac_serviceCode'),
    passported_to: cells.states('ac_serviceCode_cou').filter((s) => s !== home),
    date: cells.date('ac_authorisationNotificationDate'),
    end: cells.date('ac_authorisationEndDate'),
    last_update: cells.date('ac_lastupdate'),
  };
}

const union = <T extends string>(lists: T[][]) => [...new Set(lists.flat())].sort();
const known = (dates: (string | null)[]) => dates.filter((d): d is string => d !== null).sort();
const latest = (dates: (string | null)[]) => known(dates).at(-1) ?? null;
const earliest = (dates: (string | null)[]) => known(dates)[0] ?? null;

export function caspEntities(table: CsvTable, notes: Notes): CaspEntity[] {
  const rows = distinctRows(table, notes).map((r) => readRow(new Cells(table.input, r, notes)));
  refuseSecondHome(rows, (r) => [r.entity.lei, r.entity.home_member_state, r.cells], notes);
  const groups = Map.groupBy(rows, (r) => r.key);
  return [...groups.values()]
    .map((group) => {
      const active = group.filter((r) => r.end === null);
      const current = active.length ? active : group;
      return {
        ...group.at(-1)!.entity,
        services: union(current.map((r) => r.services)),
        passported_to: union(current.map((r) => r.passported_to)),
        authorised: earliest(group.map((r) => r.date)),
        withdrawn: active.length ? null : latest(group.map((r) => r.end)),
        last_update: latest(group.map((r) => r.last_update)),
      };
    })
    .sort(byStateAndName);
}

export const byStateAndName = (
  a: { home_member_state: string; name: string },
  b: { home_member_state: string; name: string },
) => a.home_member_state.localeCompare(b.home_member_state) || a.name.localeCompare(b.name);
