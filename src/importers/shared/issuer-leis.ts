// Every issuer LEI the data cites, with the names each record gives that issuer: assets name the
// issuer (issuer.name), stablecoins also the legal entity that issues the token
// (issuer.issuing_entity), which is the one the LEI belongs to.
import type { DataDoc } from './data-docs.ts';

export interface LeiUse {
  file: string;
  /** The names the record gives the issuer, any of which may be GLEIF's legal name. */
  names: string[];
}

export function issuerLeis(files: readonly DataDoc[]): Map<string, LeiUse[]> {
  const uses = new Map<string, LeiUse[]>();
  for (const { path, doc } of files) {
    const lei = doc.getIn(['issuer', 'lei']);
    if (typeof lei !== 'string') continue;
    const names = ['name', 'issuing_entity']
      .map((key) => doc.getIn(['issuer', key]))
      .filter((n): n is string => typeof n === 'string');
    uses.set(lei, [...(uses.get(lei) ?? []), { file: path, names }]);
  }
  return new Map([...uses].sort(([a], [b]) => a.localeCompare(b)));
}
