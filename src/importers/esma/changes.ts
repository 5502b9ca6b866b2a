// What changed between two versions of CASPS.csv, in lines a reviewer reads: new, withdrawn,
// changed and no longer listed authorisations. An authorisation is identified by its LEI (and
// name, where ESMA lists two entities under one LEI) and its competent authority.
import type { CaspEntity } from '../../domain/mica-register.ts';

const keyOf = (e: CaspEntity) => `${e.lei ?? '-'}|${e.name}|${e.competent_authority}`;
const label = (e: CaspEntity) =>
  `${e.home_member_state}  ${e.name} (${e.lei ? `LEI ${e.lei}` : 'no LEI'}, ${e.competent_authority})`;

function listDiff(before: string[], after: string[]): string | null {
  const added = after.filter((x) => !before.includes(x));
  const removed = before.filter((x) => !after.includes(x));
  if (!added.length && !removed.length) return null;
  return [...added.map((x) => `+${x}`), ...removed.map((x) => `-${x}`)].join(' ');
}

function changed(old: CaspEntity, now: CaspEntity): string[] {
  const out: string[] = [];
  const services = listDiff(old.services, now.services);
  if (services) out.push(`services ${services}`);
  const passport = listDiff(old.passported_to, now.passported_to);
  if (passport) out.push(`passported to ${passport}`);
  if (old.authorised !== now.authorised)
    out.push(`authorisation date ${old.authorised} → ${now.authorised}`);
  if (old.home_member_state !== now.home_member_state)
    out.push(`home member state ${old.home_member_state} → ${now.home_member_state}`);
  return out;
}

export function caspChanges(
  before: CaspEntity[],
  after: CaspEntity[],
  versions: { before: string; after: string },
): string[] {
  const old = new Map(before.map((e) => [keyOf(e), e]));
  const now = new Map(after.map((e) => [keyOf(e), e]));
  // An entity whose LEI was added or corrected keeps its name and authority: the same entity.
  const byName = (e: CaspEntity) => `${e.name}|${e.competent_authority}`;
  const unmatchedOld = new Map(
    [...old].filter(([key]) => !now.has(key)).map(([, e]) => [byName(e), e]),
  );
  const added: string[] = [];
  const withdrawn: string[] = [];
  const modified: string[] = [];
  for (const [key, e] of now) {
    const renamed = old.has(key) ? undefined : unmatchedOld.get(byName(e));
    const was = old.get(key) ?? renamed;
    if (renamed) old.delete(keyOf(renamed));
    if (!was) {
      added.push(
        `  + new        ${label(e)}: ${e.withdrawn ? `authorised ${e.authorised}, withdrawn ${e.withdrawn}` : `authorised ${e.authorised}`}, services ${e.services.join(', ') || 'none'}`,
      );
    } else if (e.withdrawn && !was.withdrawn) {
      withdrawn.push(`  - withdrawn  ${label(e)}: on ${e.withdrawn}`);
    } else {
      const what = changed(was, e);
      if (was.lei !== e.lei) what.unshift(`LEI ${was.lei ?? 'none'} → ${e.lei ?? 'none'}`);
      if (what.length) modified.push(`  ~ changed    ${label(e)}: ${what.join('; ')}`);
    }
  }
  const gone = [...old].filter(([key]) => !now.has(key));
  const removed = gone.map(([, e]) => `  - not listed ${label(e)}: no longer in the register`);
  return [
    `CASPS ${versions.before} → ${versions.after}: ${added.length} new, ${withdrawn.length} withdrawn, ${modified.length} changed, ${removed.length} no longer listed`,
    ...added,
    ...withdrawn,
    ...modified,
    ...removed,
  ];
}
