// The methodology's rule for a record's validation level (/docs/methodology#validation), computed
// from its evidence, never typed: the refresh writes the level it gives, and `data:check` refuses
// a level that differs from it, in either direction.
//
// L1: at least one ledger entry's contract confirmed by fresh technical evidence, and no fresh
// ledger read contradicting any entry. A read confirms a contract when the address holds code and
// the token's symbol and decimals are those stated (the ledger entry's `symbol`, else the record's
// ticker `short_name`; the entry's `decimals` where stated): a read that matches nothing stated
// confirms nothing. An issuer's own record (or an explorer's or CSD's) confirms the contract it
// lists on that ledger. The supply is recorded where the evidence shows it; it is not required.
// L2 adds the prospectus or regulatory filings and a named custodian or transfer agent; L3 adds a
// CSD, registrar or transfer-agent record. Evidence older than its method's maximum age
// (data/codes/source-policy.yaml evidence_max_age_days) no longer counts.
import type { TechnicalEvidence, Validation } from '../domain/asset.ts';

export type Level = Validation['level'];
export const LEVEL_RANK: Record<Level, number> = { unverified: 0, L1: 1, L2: 2, L3: 3 };
const LEVELS: Level[] = ['unverified', 'L1', 'L2', 'L3'];

export type EvidenceMaxAge = Record<TechnicalEvidence['method'], number>;

/** What the rule reads of a record (a resolved record, or a data file as parsed). */
export interface LevelInput {
  short_name?: string | null;
  ledgers: readonly {
    ledger: string;
    contract_address: string | null;
    symbol?: string | undefined;
    decimals?: number | undefined;
  }[];
  validation: Pick<Validation, 'evidence'>;
  /** The record's sources by id, with their kind. */
  sourceKinds: ReadonlyMap<string, string>;
  /** Custodian or transfer agent named (a series: its programme's). */
  custodyNamed: boolean;
}

export type Standing = 'confirms' | 'contradicts' | 'expired' | 'confirms nothing';

export interface EvidenceStanding {
  evidence: TechnicalEvidence;
  standing: Standing;
  /** Why, in product terms (shown in data:check, the refresh summary and the data report). */
  reason: string;
}

/** Source kinds that are the issuer's, a ledger explorer's or a depository's own record. */
const RECORD_KINDS: Record<Exclude<TechnicalEvidence['method'], 'rpc'>, ReadonlySet<string>> = {
  issuer_record: new Set(['issuer', 'prospectus', 'regulatory_filing']),
  explorer: new Set(['explorer']),
  csd_record: new Set(['csd_or_registrar', 'transfer_agent']),
};
const DOCUMENT_KINDS = new Set(['prospectus', 'regulatory_filing']);
const CONFIRMATION_KINDS = new Set(['csd_or_registrar', 'transfer_agent']);

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

export const ageDays = (asOf: string, date: string) =>
  Math.floor((Date.parse(date) - Date.parse(asOf)) / 86_400_000);

export function standingOf(
  e: TechnicalEvidence,
  record: LevelInput,
  maxAge: EvidenceMaxAge,
  date: string,
): EvidenceStanding {
  const at = (standing: Standing, reason: string) => ({ evidence: e, standing, reason });
  const entry = record.ledgers.find(
    (l) =>
      l.ledger === e.ledger &&
      (l.contract_address === e.contract_address ||
        sameAddress(l.contract_address, e.contract_address)),
  );
  if (!entry)
    return at('confirms nothing', `names a contract on ${e.ledger} that the record does not list`);
  const age = ageDays(e.as_of, date);
  if (age > maxAge[e.method])
    return at(
      'expired',
      `${e.method} of ${e.as_of} is ${age} days old (counts for ${maxAge[e.method]})`,
    );
  if (e.method === 'rpc') {
    const block = `at block ${e.block_number ?? '?'} of chain ${e.chain_id ?? '?'}`;
    if (e.code === false) return at('contradicts', `no contract code at the address ${block}`);
    const symbol = entry.symbol ?? record.short_name ?? null;
    if (e.symbol !== undefined && symbol !== null && e.symbol !== symbol)
      return at('contradicts', `symbol "${e.symbol}" read ${block}; the record states "${symbol}"`);
    if (e.decimals !== undefined && entry.decimals !== undefined && e.decimals !== entry.decimals)
      return at(
        'contradicts',
        `${e.decimals} decimals read ${block}; the record states ${entry.decimals}`,
      );
    if (symbol === null || e.symbol === undefined)
      return at(
        'confirms nothing',
        `read ${block}, but the record states no symbol to compare it with`,
      );
    return at(
      'confirms',
      `symbol "${e.symbol}"${e.decimals === undefined ? '' : ` and ${e.decimals} decimals`} read ${block}, as stated`,
    );
  }
  if (e.record) return at('confirms', `listed by ${e.record.publisher} (${e.record.title})`);
  const kind = e.source ? record.sourceKinds.get(e.source) : undefined;
  if (!kind) return at('confirms nothing', `names no source of the record`);
  if (!RECORD_KINDS[e.method].has(kind))
    return at(
      'confirms nothing',
      `rests on a ${kind} source, not the ${e.method.replace('_', ' ')} it claims`,
    );
  return at('confirms', `${e.method.replace('_', ' ')} "${e.source}" of ${e.as_of}`);
}

export interface LevelOutcome {
  level: Level;
  standings: EvidenceStanding[];
  /** Why the level is not higher (empty at L3). */
  missing: string[];
}

/** The level the record's evidence supports at `date`. */
export function supportedLevel(
  record: LevelInput,
  maxAge: EvidenceMaxAge,
  date: string,
): LevelOutcome {
  const evidence = record.validation.evidence ?? {};
  const standings = (evidence.technical ?? []).map((e) => standingOf(e, record, maxAge, date));
  const missing: string[] = [];
  const contradicted = standings.filter((s) => s.standing === 'contradicts');
  const l1 = contradicted.length === 0 && standings.some((s) => s.standing === 'confirms');
  if (contradicted.length)
    missing.push(
      `a ledger read contradicts the record: ${contradicted.map((s) => `${s.evidence.ledger} ${s.reason}`).join('; ')}`,
    );
  else if (!l1) {
    const expired = standings.filter((s) => s.standing === 'expired');
    missing.push(
      expired.length
        ? `its technical evidence is past its maximum age (${expired.map((s) => `${s.evidence.ledger}: ${s.reason}`).join('; ')}); L1 needs a contract confirmed by a fresh ledger read or the issuer’s own record`
        : 'L1 needs a contract confirmed by a fresh ledger read or the issuer’s own record',
    );
  }
  const kinds = (ids: readonly string[] | undefined, allowed: ReadonlySet<string>) =>
    (ids ?? []).some((id) => allowed.has(record.sourceKinds.get(id) ?? ''));
  const l2 = l1 && kinds(evidence.documents, DOCUMENT_KINDS) && record.custodyNamed;
  if (l1 && !l2)
    missing.push(
      'L2 needs the prospectus or regulatory filings and the custodian or transfer agent',
    );
  const l3 = l2 && kinds(evidence.confirmation, CONFIRMATION_KINDS);
  if (l2 && !l3) missing.push('L3 needs a CSD, registrar or transfer-agent record');
  return { level: LEVELS[[l1, l2, l3].filter(Boolean).length]!, standings, missing };
}

/** Who or what established a confirming piece of evidence, for the basis sentence. */
const confirmedBy = (e: TechnicalEvidence) =>
  e.method === 'rpc'
    ? `a read of the ledger (chain ${e.chain_id ?? '?'}, block ${e.block_number ?? '?'})`
    : e.record
      ? `the issuer's own record (${e.record.publisher}: ${e.record.repository ?? e.record.url})`
      : `${e.method.replace('_', ' ')} "${e.source}"`;

/** The sentence a computed level's `basis` carries (written by the importers that set it). */
export function levelBasis(outcome: LevelOutcome): string {
  if (outcome.level === 'unverified')
    return `Unverified by the methodology's rule: ${outcome.missing[0] ?? 'no technical evidence'}.`;
  const byWhom = new Map<string, string[]>();
  for (const s of outcome.standings.filter((x) => x.standing === 'confirms')) {
    const who = confirmedBy(s.evidence);
    byWhom.set(who, [...new Set([...(byWhom.get(who) ?? []), s.evidence.ledger])]);
  }
  const parts = [...byWhom].map(([who, ledgers]) => `on ${ledgers.join(', ')} by ${who}`);
  return `${outcome.level} by the methodology's rule: the contract is confirmed ${parts.join('; ')}.${outcome.missing.length ? ` ${outcome.missing[0]}.` : ''}`;
}
