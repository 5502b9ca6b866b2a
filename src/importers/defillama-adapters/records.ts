// New records from adapter products: a single asset, a programme, or a series of a programme.
// Every fact no source gives is null (a risk factor `unknown`) with its reason; class facts follow
// the named rule of classes.ts, named in risk_factor_notes; validation is `unverified`, since an aggregator's configuration is not a ledger read.
import type { AssetRecord, SeriesRecord } from '../../domain/asset.ts';
import type { FactOrigin, Source } from '../../domain/common.ts';
import {
  UNKNOWN_CUSTODY,
  UNKNOWN_SETTLEMENT,
  riskFactorNotesFor,
  riskFactorsFor,
  ruleFor,
  type ClassRule,
} from './classes.ts';
import type { Product, ProductLedger } from './products.ts';

const NOT_STATED = (what: string) => `${what} is not stated in the sources of this record.`;

export const ADAPTER_BASIS =
  "The contract addresses come from DefiLlama's adapter configuration alone, an aggregator's data rather than a ledger read or an issuer statement, so the record is unverified.";

/** How the basis says which facts a rule set and what the rest are. */
export const classFactsSentence = (rule: string) =>
  `Credit factors follow rule ${rule}; a risk factor no source states is unknown, with its reason.`;

export const validationFor = (rule: ClassRule | null, basis = ADAPTER_BASIS) => ({
  level: 'unverified' as const,
  basis: `${basis}${rule ? ` ${classFactsSentence(rule.name)}` : ''}`,
  evidence: { technical: [], documents: [], confirmation: [] },
});

const ledgerEntry = (l: ProductLedger): AssetRecord['ledgers'][number] => ({
  ledger: l.ledger,
  token_standard: null,
  contract_address: l.contract_address,
  contract_address_null_reason: null,
  origin: l.origin,
});

interface NewRecordInput {
  tfin: string;
  kind?: 'programme';
  name: string;
  shortName: string | null;
  tfic: string;
  tficName: string;
  issuerName: string;
  ledgers: AssetRecord['ledgers'];
  description: string;
  source: Source;
  asOf: string;
  /** Why the record is unverified (default: its addresses come from the adapter alone). */
  basis?: string;
  isin?: { value: string; origin: FactOrigin } | null;
  lei?: { value: string; origin: FactOrigin } | null;
}

export function newAssetRecord(r: NewRecordInput): AssetRecord {
  const rule = ruleFor(r.tfic);
  return {
    tfin: r.tfin,
    ...(r.kind ? { kind: r.kind } : {}),
    name: r.name,
    short_name: r.shortName,
    tfic: r.tfic,
    description: r.description,
    issuer: {
      name: r.issuerName,
      sponsor: null,
      ...(r.lei
        ? { lei: r.lei.value, lei_origin: r.lei.origin, lei_null_reason: null }
        : { lei: null, lei_null_reason: NOT_STATED("The issuer's LEI") }),
      jurisdiction: null,
      jurisdiction_null_reason: NOT_STATED("The issuer's domicile"),
    },
    ledgers: r.ledgers,
    identifiers: r.isin
      ? {
          isin: r.isin.value,
          isin_origin: r.isin.origin,
          cusip: null,
          figi: null,
          null_reason: null,
        }
      : { isin: null, cusip: null, figi: null, null_reason: NOT_STATED('An ISIN, CUSIP or FIGI') },
    mica: rule.mica,
    custody: UNKNOWN_CUSTODY,
    settlement: UNKNOWN_SETTLEMENT,
    risk_factors: riskFactorsFor(rule),
    risk_factor_notes: riskFactorNotesFor(rule),
    validation: validationFor(rule, r.basis),
    amount: null,
    amount_null_reason: NOT_STATED('A dated amount outstanding'),
    minimum_investment: null,
    minimum_investment_null_reason: NOT_STATED('A minimum investment'),
    dates: {
      launch_date: null,
      launch_null_reason: NOT_STATED('The launch date'),
      maturity_date: null,
      maturity_null_reason: r.tfic.startsWith('FUND.')
        ? 'Fund units have no maturity.'
        : NOT_STATED('A maturity date'),
      end_date: null,
    },
    lifecycle_status: 'active',
    sources: [r.source],
    as_of: r.asOf,
  };
}

/** A single asset from its product. */
export function productRecord(
  product: Product,
  tfin: string,
  tfic: string,
  tficName: string,
  ledgerNames: string[],
  source: Source,
): AssetRecord {
  const name = product.name ?? `${product.issuer} ${product.key}`;
  return newAssetRecord({
    tfin,
    name,
    shortName: product.ticker,
    tfic,
    tficName,
    issuerName: product.issuer,
    ledgers: product.ledgers.map(ledgerEntry),
    description: `${name}: a ${tficName.toLowerCase()} token of ${product.issuer} on ${ledgerNames.join(', ')}. Its terms, custody and service providers are not stated in the sources of this record.`,
    source,
    asOf: source.published ?? source.accessed,
  });
}

/** A series of a programme from its product. */
export function seriesFor(
  product: Product,
  tfin: string,
  programme: string,
  name: string,
  underlying: SeriesRecord['underlying'],
  source: Source,
): SeriesRecord {
  return {
    tfin,
    programme,
    name,
    short_name: product.ticker,
    description: null,
    underlying,
    ledgers: product.ledgers.map(ledgerEntry),
    identifiers: { isin: null, cusip: null, figi: null, null_reason: NOT_STATED('An ISIN') },
    validation: validationFor(null),
    dates: { launch_date: null, launch_null_reason: NOT_STATED('The launch date of this token') },
    lifecycle_status: 'active',
    sources: [source],
    as_of: source.published ?? source.accessed,
  };
}
