// What the GLEIF records say about the data's LEIs: unknown to GLEIF, registration not in force,
// entity inactive, or a legal name none of the record's names matches. These are findings for a
// person (a lapsed LEI is still the issuer's LEI), so they are reported, not written.
import type { LeiUse } from '../shared/issuer-leis.ts';
import type { LeiRecord } from './records.ts';

// Registration statuses under which the LEI is current; every other one (LAPSED, RETIRED,
// ANNULLED, MERGED, DUPLICATE, CANCELLED, TRANSFERRED…) is reported.
const IN_FORCE = new Set(['ISSUED', 'PENDING_TRANSFER', 'PENDING_ARCHIVAL']);

const LEGAL_FORMS: [RegExp, string][] = [
  [/\bs\s?a\b/g, 'sa'],
  [/\blimited\b/g, 'ltd'],
  [/\bincorporated\b/g, 'inc'],
  [/\bcorporation\b/g, 'corp'],
  [/\bcompany\b/g, 'co'],
  [/\bpublic limited company\b/g, 'plc'],
  [/\bgesellschaft mit beschrankter haftung\b/g, 'gmbh'],
  [/\baktiengesellschaft\b/g, 'ag'],
];

/**
 * A name reduced to what identifies it: case, accents, punctuation, "&" and the spelling of
 * common legal forms differ between GLEIF ("EUROPEAN INVESTMENT BANK", "S.A.") and editors.
 */
export function comparableName(name: string): string {
  let n = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.,'’"()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const [form, short] of LEGAL_FORMS) n = n.replace(form, short);
  return n.replace(/\s+/g, ' ');
}

export function findings(leis: Map<string, LeiUse[]>, records: Map<string, LeiRecord>): string[] {
  const lines: string[] = [];
  for (const [lei, uses] of leis) {
    const files = uses.map((u) => u.file).join(', ');
    const record = records.get(lei);
    if (!record) {
      lines.push(
        `UNKNOWN LEI ${lei} (${files}): not in the GLEIF answer (no GLEIF record, or the query did not ask for it)`,
      );
      continue;
    }
    if (!IN_FORCE.has(record.registration_status))
      lines.push(
        `LEI ${lei} "${record.legal_name}" (${files}): registration ${record.registration_status} (last update ${record.last_update})`,
      );
    if (record.entity_status !== 'ACTIVE')
      lines.push(
        `LEI ${lei} "${record.legal_name}" (${files}): entity status ${record.entity_status}`,
      );
    const gleifNames = new Set([record.legal_name, ...record.other_names].map(comparableName));
    for (const use of uses)
      if (!use.names.some((n) => gleifNames.has(comparableName(n))))
        lines.push(
          `NAME ${use.file}: issuer ${use.names.map((n) => `"${n}"`).join(' / ')} does not match GLEIF's legal name "${record.legal_name}" for LEI ${lei}`,
        );
  }
  return lines;
}
