// The compact registry index: per asset, only what filtering and sorting need, so that a
// server can hold 100,000 assets without holding their profiles as objects.
import type { AssetProfile } from '../domain/api.ts';

export interface IndexRow {
  tfin: string;
  /** asset, programme or series (absent in rows built before series: asset). */
  kind?: 'asset' | 'programme' | 'series';
  /** TFIN of a series' programme. */
  programme?: string | null;
  name: string;
  asset_class: string;
  tfic: string;
  ledgers: string[];
  mica_status: string;
  jurisdiction: string | null;
  validation_level: 'unverified' | 'L1' | 'L2' | 'L3';
  risk: number;
  as_of: string;
  /** TFIN, name, short name, issuer and sponsor folded (`foldText`), each between newlines, for `q=`. */
  text: string;
  /** Identifiers the lookup and the list filters resolve (absent in rows built before them). */
  isin?: string | null;
  dti?: string | null;
  lei?: string | null;
  /** `<LEDGER>:<address>` of every ledger entry with a contract address (EVM addresses lower-cased). */
  contracts?: string[];
  lifecycle_status?: string;
  /** The amount in USD (`amount.value_usd`), for sort=amount_usd; null without one. */
  amount_usd?: number | null;
  /** `last_changed` of the asset, for changed_since=. */
  last_changed?: string;
}

/**
 * Text as search compares it: compatibility-decomposed (NFKD), combining marks removed, lower
 * case. "Société Générale", "SOCIETE GENERALE" and "ｓｏｃｉｅｔｅ" all fold to "societe …".
 */
export function foldText(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The searchable fields, folded once at build: "\n" + fields joined by "\n" + "\n". */
export function searchText(fields: readonly (string | null | undefined)[]): string {
  return `\n${fields
    .filter((f): f is string => !!f)
    .map((f) => foldText(f).replaceAll('\n', ' '))
    .join('\n')}\n`;
}

/**
 * How well a folded query matches a search text: 0 a whole field, 1 the start of a field, 2 the
 * start of a word, 3 anywhere; -1 not at all. Lower ranks first.
 */
export function searchRank(text: string, q: string): number {
  const at = text.indexOf(q);
  if (at < 0) return -1;
  if (text.includes(`\n${q}\n`)) return 0;
  if (text.includes(`\n${q}`)) return 1;
  for (let i = at; i >= 0; i = text.indexOf(q, i + 1)) if (!isWordCharacter(text, i - 1)) return 2;
  return 3;
}

const WORD = /[\p{L}\p{N}]/u;
/** A letter or digit (ASCII by code, the rest by Unicode property). */
function isWordCharacter(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return WORD.test(text[i]!);
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * A contract reference in its one comparable form: the ledger code upper-cased and, for an EVM
 * address (0x + 40 hex digits, whose case is only a checksum), the address lower-cased. Other
 * ledgers' addresses (Stellar, Solana, …) are case-sensitive and kept as written.
 */
export function contractKey(ledger: string, address: string): string {
  const a = address.trim();
  return `${ledger.trim().toUpperCase()}:${EVM_ADDRESS.test(a) ? a.toLowerCase() : a}`;
}

export interface RegistryCoverage {
  assets: number;
  jurisdictions: string[];
  asset_classes: string[];
  ledgers: string[];
}

export function indexRow(a: AssetProfile): IndexRow {
  return {
    tfin: a.tfin,
    kind: a.kind,
    programme: a.programme,
    name: a.name,
    asset_class: a.classification.asset_class.code,
    tfic: a.classification.tfic.code,
    ledgers: a.ledgers.map((l) => l.ledger),
    mica_status: a.mica.status,
    jurisdiction: a.issuer.jurisdiction,
    validation_level: a.validation.level,
    risk: a.risk.overall.score,
    as_of: a.as_of,
    text: searchText([a.tfin, a.name, a.short_name, a.issuer.name, a.issuer.sponsor]),
    isin: a.isin_mapping.isin,
    dti: a.isin_mapping.dti,
    lei: a.issuer.lei,
    contracts: a.ledgers.flatMap((l) =>
      l.contract_address ? [contractKey(l.ledger, l.contract_address)] : [],
    ),
    lifecycle_status: a.lifecycle_status,
    amount_usd: a.amount?.value_usd ?? null,
    last_changed: a.last_changed,
  };
}

export function registryCoverage(assets: readonly AssetProfile[]): RegistryCoverage {
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return {
    assets: assets.length,
    jurisdictions: uniq(
      assets.flatMap((a) => (a.issuer.jurisdiction ? [a.issuer.jurisdiction] : [])),
    ),
    asset_classes: uniq(assets.map((a) => a.classification.asset_class.code)),
    ledgers: uniq(assets.flatMap((a) => a.ledgers.map((l) => l.ledger))),
  };
}
