// The /v1/compliance/mica-status view: the four categories, the 27 member states with their
// readiness scores and components, and the jurisdictions covered (counted from the data).
import type { MicaStatusBody, MemberStateView } from '../domain/api-market.ts';
import type {
  CategoriesFile,
  JurisdictionsFile,
  MemberStateRecord,
  ReadinessTable,
} from '../domain/mica.ts';
import type { ParamSpec } from './params.ts';
import { readiness } from './readiness.ts';

export interface MicaSection {
  as_of: string;
  readiness_formula_version: string;
  categories: CategoriesFile['categories'];
  member_states: MemberStateView[];
  coverage: MicaStatusBody['data']['coverage'];
}

export function buildMicaSection(
  categories: CategoriesFile,
  states: MemberStateRecord[],
  jurisdictions: JurisdictionsFile,
  table: ReadinessTable,
): MicaSection {
  const list = [...jurisdictions.jurisdictions].sort((a, b) => a.iso.localeCompare(b.iso));
  const count = (g: string) => list.filter((j) => j.group === g).length;
  return {
    as_of: [categories.as_of, jurisdictions.as_of, ...states.map((s) => s.as_of)].sort().at(-1)!,
    readiness_formula_version: table.version,
    categories: categories.categories,
    member_states: [...states]
      .sort((a, b) => a.iso.localeCompare(b.iso))
      .map((s) => ({ ...s, readiness: readiness(s, table) })),
    coverage: {
      jurisdictions: list.length,
      by_group: { eu: count('eu'), eea: count('eea'), other: count('other') },
      as_of: jurisdictions.as_of,
      list,
    },
  };
}

export const MICA_PARAMS: ParamSpec[] = [
  {
    name: 'member_state',
    description:
      'ISO 3166-1 alpha-2 code of an EU member state (case-insensitive); returns that state only.',
    pattern: /^[A-Z]{2}$/,
    format: 'an ISO 3166-1 alpha-2 code',
    normalise: (s) => s.trim().toUpperCase(),
    example: 'DE',
  },
];
