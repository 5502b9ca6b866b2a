// The verified records (L1 or above) with the evidence each rests on: what `npm run data:report`
// lists and /docs/data-report shows, so a reader can check every verified record against its
// source (a ledger read's chain and block, an issuer's record's page or repository and commit).
import type { TechnicalEvidence, Validation } from '../domain/asset.ts';

export interface VerifiedEvidence {
  ledger: string;
  contract_address: string | null;
  method: TechnicalEvidence['method'];
  /** Who or what shows it: the issuer's record (publisher), a source id, or the ledger itself. */
  by: string;
  /** Where to check it: the record's URL, or chain id and block for a ledger read. */
  where: string | null;
  as_of: string;
  block_number: number | null;
}

export interface VerifiedEntry {
  tfin: string;
  name: string;
  level: Validation['level'];
  evidence: VerifiedEvidence[];
}

function evidenceEntry(e: TechnicalEvidence, urls: ReadonlyMap<string, string>): VerifiedEvidence {
  return {
    ledger: e.ledger,
    contract_address: e.contract_address,
    method: e.method,
    by: e.method === 'rpc' ? 'ledger read' : (e.record?.publisher ?? e.source ?? 'unnamed'),
    where:
      e.method === 'rpc'
        ? `chain ${e.chain_id ?? '?'}`
        : (e.record?.url ?? (e.source ? (urls.get(e.source) ?? null) : null)),
    as_of: e.as_of,
    block_number: e.block_number ?? null,
  };
}

/** Every record at L1 or above, in TFIN order, with its technical evidence. */
export function verifiedRecords(
  records: readonly {
    tfin: string;
    name: string;
    validation: Pick<Validation, 'level' | 'evidence'>;
    sources?: readonly { id: string; url: string }[];
  }[],
): VerifiedEntry[] {
  return records
    .filter((r) => r.validation.level !== 'unverified')
    .map((r) => ({
      tfin: r.tfin,
      name: r.name,
      level: r.validation.level,
      evidence: (r.validation.evidence?.technical ?? []).map((e) =>
        evidenceEntry(e, new Map((r.sources ?? []).map((s) => [s.id, s.url]))),
      ),
    }))
    .sort((a, b) => (a.tfin < b.tfin ? -1 : a.tfin > b.tfin ? 1 : 0));
}

/** The verified records as report lines: one per record, one per piece of evidence under it. */
export function formatVerified(entries: readonly VerifiedEntry[], listed: number): string {
  const lines = [`Verified records (L1 or above): ${entries.length} of ${listed} records`];
  for (const v of entries) {
    lines.push(`  ${v.tfin} ${v.level} ${v.name}`);
    for (const e of v.evidence)
      lines.push(
        `    ${e.ledger} ${e.contract_address ?? '(no public contract)'}: ${e.method} by ${e.by}, ${e.as_of}${e.block_number === null ? '' : `, block ${e.block_number}`}${e.where ? ` (${e.where})` : ''}`,
      );
  }
  return lines.join('\n');
}
