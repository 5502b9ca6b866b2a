// Sets a record's validation level to the one its evidence supports (the methodology's rule,
// src/dataset/validation-level.ts) in its data file, with the rule's sentence as the basis; a
// level that already agrees is left as written (its basis is the editor's). Used by the importers
// that write evidence (onchain, issuer-records) and by the `levels` importer, which the refresh
// runs last so that evidence past its maximum age stops counting.
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataDoc } from './data-docs.ts';
import { sourcePolicyTable } from '../../domain/codes.ts';
import {
  levelBasis,
  supportedLevel,
  type EvidenceMaxAge,
  type LevelInput,
  type LevelOutcome,
} from '../../dataset/validation-level.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export const ASSET_DIRS = ['data/assets', 'data/assets/series'] as const;

/** The maximum ages of evidence (data/codes/source-policy.yaml). */
export function evidenceMaxAge(root: string): EvidenceMaxAge {
  const file = path.join(root, 'data/codes/source-policy.yaml');
  return sourcePolicyTable.parse(parse(readFileSync(file, 'utf8'))).evidence_max_age_days;
}

/** The rule's view of a data file; a series reads custody and sources from its programme. */
export function levelInputOf(file: DataDoc, programmes: ReadonlyMap<string, DataDoc>): LevelInput {
  const own = file.doc.toJSON() as Obj;
  const parent =
    typeof own['programme'] === 'string' ? programmes.get(own['programme']) : undefined;
  const programme = (parent?.doc.toJSON() ?? {}) as Obj;
  const custody = isObj(own['custody'])
    ? own['custody']
    : isObj(programme['custody'])
      ? programme['custody']
      : {};
  const sources = [...list(own['sources']), ...list(programme['sources'])];
  return {
    short_name: typeof own['short_name'] === 'string' ? own['short_name'] : null,
    ledgers: list(own['ledgers']) as unknown as LevelInput['ledgers'],
    validation: (isObj(own['validation']) ? own['validation'] : {}) as LevelInput['validation'],
    sourceKinds: new Map(
      sources.reverse().map((s) => [String(s['id']), String(s['kind'])] as const),
    ),
    custodyNamed: !!(custody['custodian'] || custody['transfer_agent']),
  };
}

export interface Settled {
  from: string;
  to: string;
  outcome: LevelOutcome;
}

/** Writes the supported level into the file when it differs; returns the change, if any. */
export function settleLevel(
  file: DataDoc,
  programmes: ReadonlyMap<string, DataDoc>,
  maxAge: EvidenceMaxAge,
  date: string,
): Settled | null {
  const outcome = supportedLevel(levelInputOf(file, programmes), maxAge, date);
  const from = String(file.doc.getIn(['validation', 'level']));
  if (from === outcome.level) return null;
  file.doc.setIn(['validation', 'level'], outcome.level);
  file.doc.setIn(['validation', 'basis'], levelBasis(outcome));
  return { from, to: outcome.level, outcome };
}

/** The dataset date levels are computed at (data/release.yaml), as data:check ages evidence. */
export function datasetDateOf(root: string, today: string): string {
  try {
    const release = parse(readFileSync(path.join(root, 'data/release.yaml'), 'utf8')) as Obj;
    return typeof release['dataset_date'] === 'string' ? release['dataset_date'] : today;
  } catch {
    return today;
  }
}

/** Programme files by TFIN (series resolve custody and sources against them). */
export function programmesOf(files: readonly DataDoc[]): Map<string, DataDoc> {
  return new Map(
    files
      .filter((f) => f.doc.get('kind') === 'programme')
      .map((f) => [String(f.doc.get('tfin')), f] as const),
  );
}

/** A report line for a level change: promotions and demotions are named in the refresh summary. */
export function levelLine(id: string, s: Settled): string {
  const verb = levelRank(s.to) > levelRank(s.from) ? 'PROMOTED' : 'DEMOTED';
  const why =
    verb === 'PROMOTED'
      ? s.outcome.standings
          .filter((x) => x.standing === 'confirms')
          .map((x) => `${x.evidence.ledger} ${x.reason}`)[0]
      : s.outcome.missing[0];
  return `  ${id}: ${verb} ${s.from} → ${s.to}: ${why ?? ''}`;
}

const levelRank = (l: string) => ['unverified', 'L1', 'L2', 'L3'].indexOf(l);
