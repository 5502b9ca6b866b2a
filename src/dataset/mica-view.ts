// The /v1/compliance/mica-status view: the four categories, the 27 member states with their
// readiness scores and components, transitional periods and the named entities behind their
// counts (ESMA's register files), the register versions, and the jurisdictions covered.
import type { MicaStatusBody, MemberStateView } from '../domain/api-mica.ts';
import type { ImportProvenance } from '../domain/common.ts';
import type {
  ArtRegisterFile,
  CaspsRegisterFile,
  EmtRegisterFile,
  NonCompliantRegisterFile,
} from '../domain/mica-register.ts';
import type {
  CategoriesFile,
  JurisdictionsFile,
  MemberStateRecord,
  ReadinessTable,
  TransitionalPeriodsFile,
} from '../domain/mica.ts';
import { activeCasps, activeIssuers } from './mica-counts.ts';
import type { LoadedMica } from './loaded.ts';
import { lastChanged } from './last-changed.ts';
import { readiness, scoredMonths } from './readiness.ts';

export interface MicaSection {
  as_of: string;
  readiness_formula_version: string;
  categories: CategoriesFile['categories'];
  member_states: MemberStateView[];
  register: MicaStatusBody['data']['register'];
  transitional_periods: MicaStatusBody['data']['transitional_periods'];
  coverage: MicaStatusBody['data']['coverage'];
}

export interface MicaInput {
  categories: CategoriesFile;
  states: MemberStateRecord[];
  jurisdictions: JurisdictionsFile;
  register: {
    casps: CaspsRegisterFile;
    emt: EmtRegisterFile;
    art: ArtRegisterFile;
    nonCompliant: NonCompliantRegisterFile;
  };
  transitional: TransitionalPeriodsFile;
}

/** The loaded MiCA files as the view needs them; data:check has reported any missing one. */
export function micaInputOf(mica: LoadedMica): MicaInput {
  const { casps, emt, art, nonCompliant } = mica.register;
  if (
    !mica.categories ||
    !mica.jurisdictions ||
    !mica.transitional ||
    !casps ||
    !emt ||
    !art ||
    !nonCompliant
  )
    throw new Error(
      'the MiCA data (categories, jurisdictions, register, transitional periods) are required',
    );
  return {
    categories: mica.categories.record,
    states: mica.memberStates.map((m) => m.record),
    jurisdictions: mica.jurisdictions.record,
    register: {
      casps: casps.record,
      emt: emt.record,
      art: art.record,
      nonCompliant: nonCompliant.record,
    },
    transitional: mica.transitional.record,
  };
}

const version = ({ file_name: _, ...rest }: ImportProvenance) => rest;

function entitiesOf(iso: string, register: MicaInput['register']): MemberStateView['entities'] {
  const home = <T extends { home_member_state: string }>(list: T[]) =>
    list.filter((e) => e.home_member_state === iso);
  return {
    casps: home(activeCasps(register.casps)).map((e) => ({
      lei: e.lei,
      name: e.name,
      services: e.services,
      authorised: e.authorised,
    })),
    emt_issuers: home(activeIssuers(register.emt.issuers)).map((i) => ({
      lei: i.lei,
      name: i.name,
      commercial_name: i.commercial_name,
      authorised: i.authorised,
      tokens: i.tokens.map((t) => ({
        dti_ffg: t.dti_ffg,
        dti: t.dti.map((d) => d.code),
        url: t.url,
        notified: t.notified,
      })),
    })),
    art_issuers: home(activeIssuers(register.art.issuers)).map((i) => ({
      lei: i.lei,
      name: i.name,
      commercial_name: i.commercial_name,
      authorised: i.authorised,
    })),
  };
}

export function buildMicaSection(input: MicaInput, table: ReadinessTable): MicaSection {
  const { categories, states, jurisdictions, register, transitional } = input;
  // Each jurisdiction with its status, key dates and sources (groups eea and other); any importer
  // provenance on a source is left out, as for the member states.
  const list = [...jurisdictions.jurisdictions]
    .sort((a, b) => a.iso.localeCompare(b.iso))
    .map((j) =>
      j.sources ? { ...j, sources: j.sources.map(({ provenance: _p, ...source }) => source) } : j,
    );
  const count = (g: string) => list.filter((j) => j.group === g).length;
  const periods = new Map(transitional.states.map((s) => [s.iso, s]));
  return {
    as_of: [categories.as_of, jurisdictions.as_of, ...states.map((s) => s.as_of)].sort().at(-1)!,
    readiness_formula_version: table.version,
    categories: categories.categories,
    member_states: [...states]
      .sort((a, b) => a.iso.localeCompare(b.iso))
      .map((s) => {
        const period = periods.get(s.iso);
        if (!period) throw new Error(`no transitional period for ${s.iso} (data:check reports it)`);
        const { iso: _, ...rest } = period;
        return {
          ...s,
          // Each register's provenance is given once, in data.register, not in every state.
          sources: s.sources.map(({ provenance: _p, ...source }) => source),
          transitional_period: { ...rest, months_scored: scoredMonths(period) },
          entities: entitiesOf(s.iso, register),
          readiness: readiness(s, period, table),
          last_changed: lastChanged([s, period]),
        };
      }),
    register: {
      casps: version(register.casps.provenance),
      emt: version(register.emt.provenance),
      art: version(register.art.provenance),
      non_compliant: version(register.nonCompliant.provenance),
    },
    transitional_periods: {
      as_of: transitional.as_of,
      esma_list: transitional.esma_list,
      sources: transitional.sources,
    },
    coverage: {
      jurisdictions: list.length,
      by_group: { eu: count('eu'), eea: count('eea'), other: count('other') },
      as_of: jurisdictions.as_of,
      list,
    },
  };
}
