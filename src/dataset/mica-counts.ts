// The member-state counts, derived from the register files (data/mica/register/): authorised
// CASPs are the entities whose authorisation is not withdrawn, EMT and ART issuers the issuers
// whose authorisation has not ended, each by home member state. The importer writes these counts
// into the member-state files and data:check verifies them with the same function.
import type {
  ArtRegisterFile,
  CaspsRegisterFile,
  EmtRegisterFile,
} from '../domain/mica-register.ts';

export type CountField = 'authorised_casps' | 'emt_issuers' | 'art_issuers';

export interface RegisterFiles {
  casps?: CaspsRegisterFile | null;
  emt?: EmtRegisterFile | null;
  art?: ArtRegisterFile | null;
}

const byState = (homes: string[]) => {
  const counts = new Map<string, number>();
  for (const h of homes) counts.set(h, (counts.get(h) ?? 0) + 1);
  return counts;
};

export function activeCasps(file: CaspsRegisterFile) {
  return file.entities.filter((e) => e.withdrawn === null);
}

export function activeIssuers<T extends { authorisation_ended: string | null }>(issuers: T[]) {
  return issuers.filter((i) => i.authorisation_ended === null);
}

/** Count per home member state of each register given; a state absent from a map counts 0. */
export function registerCounts(
  files: RegisterFiles,
): Partial<Record<CountField, Map<string, number>>> {
  return {
    ...(files.casps && {
      authorised_casps: byState(activeCasps(files.casps).map((e) => e.home_member_state)),
    }),
    ...(files.emt && {
      emt_issuers: byState(activeIssuers(files.emt.issuers).map((i) => i.home_member_state)),
    }),
    ...(files.art && {
      art_issuers: byState(activeIssuers(files.art.issuers).map((i) => i.home_member_state)),
    }),
  };
}
