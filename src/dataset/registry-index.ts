// The compact registry index: per asset, only what filtering and sorting need, so that a
// server can hold 100,000 assets without holding their profiles as objects.
import type { AssetProfile } from '../domain/api.ts';
import { distinctProducts } from './parents.ts';

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
  /** The MiCA authorisation status (absent in rows built before it). */
  mica_authorisation?: string;
  /** The regulatory factors, `unknown` where no source states them (absent in older rows). */
  regime?: string;
  eu_access?: string;
  jurisdiction: string | null;
  validation_level: 'unverified' | 'L1' | 'L2' | 'L3';
  /** The overall risk score; null when a factor is unknown. */
  risk: number | null;
  as_of: string;
  /** The text `q=` searches, by field (absent in rows of releases built before it). */
  search?: RowSearch;
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

/** An asset's searchable text by field, as written (the search folds it); fields joined by "\n". */
export interface RowSearch {
  /** Name and short name (ticker). */
  names: string;
  /** Issuer and sponsor. */
  issuer: string;
  /** Asset class, TFIC category and the amount's currency: codes and names. */
  kind: string;
  /** Ledger codes and names. */
  ledgers: string;
  /** TFIN, ISIN, CUSIP, FIGI, DTI, LEI and contract addresses. */
  ids: string;
  /** The description's words not already in the other fields, folded, each once (kept small: the index rides in the core). */
  about: string;
}

const lines = (values: readonly (string | null | undefined)[]) =>
  values.filter((v): v is string => !!v).join('\n');

/** The English name of an ISO 4217 code ("EUR" → "Euro"), from the runtime's ICU data. */
const CURRENCY_NAMES = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
export const currencyName = (code: string): string | undefined => {
  try {
    return CURRENCY_NAMES.of(code);
  } catch {
    return undefined;
  }
};

export function rowSearch(a: AssetProfile): RowSearch {
  const { asset_class, tfic } = a.classification;
  const currency = a.amount?.currency;
  const fields: Omit<RowSearch, 'about'> = {
    names: lines([a.name, a.short_name]),
    issuer: lines([a.issuer.name, a.issuer.sponsor]),
    kind: lines([
      `${asset_class.code} ${asset_class.name}`,
      `${tfic.code} ${tfic.name}`,
      currency && `${currency} ${currencyName(currency) ?? ''}`,
    ]),
    ledgers: lines(a.ledgers.map((l) => `${l.ledger} ${l.name}`)),
    ids: lines([
      a.tfin,
      a.isin_mapping.isin,
      a.isin_mapping.cusip,
      a.isin_mapping.figi,
      a.isin_mapping.dti,
      a.issuer.lei,
      ...a.ledgers.map((l) => l.contract_address),
    ]),
  };
  return { ...fields, about: newWords(a.description ?? '', Object.values(fields)) };
}

/** The words of `text` (three letters or more, folded) that none of `others` holds, each once. */
function newWords(text: string, others: readonly string[]): string {
  const words = (t: string) => foldText(t).match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const seen = new Set(others.flatMap(words));
  const out = new Set<string>();
  for (const w of words(text)) if (!seen.has(w)) out.add(w);
  return [...out].join(' ');
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
  /** Products counted once: a share class, wrapper or feeder whose parent is listed counts with it (a release built before the count has none). */
  products?: number;
  jurisdictions: string[];
  asset_classes: string[];
  ledgers: string[];
  /** Records per validation level (a release built before the count has none). */
  by_validation_level?: Record<'unverified' | 'L1' | 'L2' | 'L3', number>;
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
    // A release built before authorisations were served (dataset_version=) states none.
    mica_authorisation: a.mica.authorisation?.status ?? 'unknown',
    regime: a.risk.vectors.regulatory.factors['regime']?.value ?? 'unknown',
    eu_access: a.risk.vectors.regulatory.factors['eu_access']?.value ?? 'unknown',
    jurisdiction: a.issuer.jurisdiction,
    validation_level: a.validation.level,
    risk: a.risk.overall.score,
    as_of: a.as_of,
    search: rowSearch(a),
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
    products: distinctProducts(assets).length,
    jurisdictions: uniq(
      assets.flatMap((a) => (a.issuer.jurisdiction ? [a.issuer.jurisdiction] : [])),
    ),
    asset_classes: uniq(assets.map((a) => a.classification.asset_class.code)),
    ledgers: uniq(assets.flatMap((a) => a.ledgers.map((l) => l.ledger))),
    by_validation_level: levelCounts(assets),
  };
}

/** Records per validation level, every level named (zero included). */
export function levelCounts(
  assets: readonly Pick<AssetProfile, 'validation'>[],
): Record<'unverified' | 'L1' | 'L2' | 'L3', number> {
  const counts = { unverified: 0, L1: 0, L2: 0, L3: 0 };
  for (const a of assets) counts[a.validation.level]++;
  return counts;
}
