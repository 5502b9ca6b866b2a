// One ESMA register file read whole: its kind, the register file the importer writes, what the
// reviewer should know about the reading (notes), and a one-line summary.
import type {
  ArtRegisterFile,
  CaspsRegisterFile,
  EmtRegisterFile,
  NonCompliantRegisterFile,
} from '../../domain/mica-register.ts';
import type { ImportProvenance } from '../../domain/common.ts';
import type { SourceInput } from '../shared/input.ts';
import { caspEntities } from './casps.ts';
import { readCsv } from '../shared/csv.ts';
import { kindOf, type KindSpec } from './kinds.ts';
import { nonCompliantEntities } from './non-compliant.ts';
import type { Notes } from './rows.ts';
import { artIssuers, emtIssuers } from './white-papers.ts';

interface Read {
  spec: KindSpec;
  notes: Notes;
  summary: string;
  /** How the member-state count is derived, in words (for the source's title). */
  countRule: string;
}

export type Register = Read &
  (
    | { kind: 'casps'; file: CaspsRegisterFile }
    | { kind: 'emt'; file: EmtRegisterFile }
    | { kind: 'art'; file: ArtRegisterFile }
    | { kind: 'non-compliant'; file: NonCompliantRegisterFile }
  );

const ISSUER_RULE = 'distinct issuers (LEI) by home member state, ended authorisations excluded';

export function readRegister(
  input: Pick<SourceInput, 'name' | 'bytes'>,
  provenance: (spec: KindSpec, rows: number) => ImportProvenance,
): Register {
  const table = readCsv(input);
  const spec = kindOf(table);
  const notes: Notes = [];
  const p = provenance(spec, table.rows.length);
  switch (spec.kind) {
    case 'casps': {
      const entities = caspEntities(table, notes);
      const withdrawn = entities.filter((e) => e.withdrawn).length;
      return {
        kind: 'casps',
        spec,
        notes,
        file: { register: 'casps', provenance: p, entities },
        summary: `${entities.length} entities, ${withdrawn} withdrawn`,
        countRule: 'distinct entities (LEI and name) by home member state, withdrawn ones excluded',
      };
    }
    case 'emt': {
      const issuers = emtIssuers(table, notes);
      const summary = `${issuers.length} issuers`;
      const file = { register: 'emt' as const, provenance: p, issuers };
      return { kind: 'emt', spec, notes, file, summary, countRule: ISSUER_RULE };
    }
    case 'art': {
      const issuers = artIssuers(table, notes);
      const summary = `${issuers.length} issuers`;
      const file = { register: 'art' as const, provenance: p, issuers };
      return { kind: 'art', spec, notes, file, summary, countRule: ISSUER_RULE };
    }
    case 'non-compliant': {
      const entities = nonCompliantEntities(table, notes);
      return {
        kind: 'non-compliant',
        spec,
        notes,
        file: { register: 'non-compliant', provenance: p, entities },
        summary: `${entities.length} decisions`,
        countRule: 'not counted',
      };
    }
  }
}
