// The asset record as a data editor writes it (data/assets/<TFIN>.yaml).
// Code values (TFIC, ledgers, MiCA status, custody, risk factors) are checked against the
// code tables by the cross-file checks in src/authoring/rules/, not enumerated here.
import { z } from 'zod';
import { TFIN_PATTERN, isValidIsin, isValidLei } from './identifiers.ts';
import {
  countryCode,
  currencyCode,
  factOrigin,
  figureHistoryFields,
  isoDate,
  kebabId,
  nonEmptyText,
  nullReason,
  reasonFor,
  repositoryPlace,
  requireReason,
  sources,
} from './common.ts';

const code = (pattern: RegExp, example: string) =>
  z.string().regex(pattern, { error: `must be a code such as "${example}" from the code tables` });

export const tfin = z.string().regex(TFIN_PATTERN, {
  error: 'must match TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>, e.g. "TFIN-DEBT-ETH-2026-0001"',
});

const lei = z.string().refine(isValidLei, {
  error: 'is not a valid LEI: 20 characters whose ISO 17442 check digits hold',
});
const isin = z.string().refine(isValidIsin, {
  error: 'is not a valid ISIN: 12 characters whose ISO 6166 check digit holds',
});
const evmAddress = z
  .string()
  // EVM, base58 (Solana, TRON), Stellar, other chains' token ids, and Cosmos denominations
  // (a base denomination such as `uusdy`, `ibc/<hash>`, `factory/<creator>/<subdenom>`).
  .regex(
    /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}|[A-Z0-9]{56}|[a-zA-Z0-9:._-]{8,120}|[a-z][a-z0-9]{2,15}|ibc\/[0-9A-F]{64}|factory\/[a-z0-9]{20,90}\/[a-zA-Z0-9._-]{1,90})$/,
    {
      error: 'must be the contract address or token identifier exactly as published',
    },
  );

/** What an aggregator's registry text states of the issuer (aggregator-sourced, with its origin). */
export const issuerRegistry = z.strictObject({
  legal_name: nonEmptyText.nullable(),
  register_number: nonEmptyText.nullable(),
  regulator: nonEmptyText.nullable(),
  origin: factOrigin,
});

export const assetIssuer = z
  .strictObject({
    name: nonEmptyText,
    sponsor: nonEmptyText.nullable(),
    lei: lei.nullable(),
    lei_null_reason: nullReason,
    /** The issuer's domicile; null with a reason when no source names it. */
    jurisdiction: countryCode.nullable(),
    jurisdiction_null_reason: nullReason,
    /** Where the LEI was read (the identifiers importer writes it; see CONTRIBUTING.md). */
    lei_origin: factOrigin.optional(),
    /** Where the domicile was read, when an importer wrote it from an aggregator's text. */
    jurisdiction_origin: factOrigin.optional(),
    /** What an aggregator's registry text states of the issuer (aggregator-sourced, with its origin). */
    registry: issuerRegistry.optional(),
  })
  .superRefine(reasonFor('lei', 'lei_null_reason'))
  .superRefine(reasonFor('jurisdiction', 'jurisdiction_null_reason'));

export const assetLedger = z
  .strictObject({
    ledger: code(/^[A-Z]{3}$/, 'ETH'),
    token_standard: nonEmptyText.nullable(),
    contract_address: evmAddress.nullable(),
    contract_address_null_reason: nullReason,
    /** Where the contract address was read (importers write it; see CONTRIBUTING.md). */
    origin: factOrigin.optional(),
    /**
     * The token's symbol and decimals as stated: by the issuer's own record (the issuer-records
     * importer), or, for decimals, at the first ledger read that agreed. A ledger read is compared
     * with them (src/dataset/validation-level.ts).
     */
    symbol: nonEmptyText.optional(),
    decimals: z.number().int().min(0).max(255).optional(),
  })
  .superRefine(reasonFor('contract_address', 'contract_address_null_reason'));

export const assetIdentifiers = z
  .strictObject({
    isin: isin.nullable(),
    cusip: z
      .string()
      .regex(/^[0-9A-Z]{9}$/, { error: 'must be 9 characters as published' })
      .nullable(),
    figi: z
      .string()
      .regex(/^BBG[0-9A-Z]{9}$/, { error: 'must be 12 characters starting "BBG" as published' })
      .nullable(),
    /** Digital Token Identifier (ISO 24165), as ESMA's registers or the DTI Foundation give it. */
    dti: z
      .string()
      .regex(/^[0-9B-DF-HJ-NP-TV-Z]{9}$/, {
        error:
          'must be the 9-character DTI exactly as published (ISO 24165: digits and consonants)',
      })
      .nullish(),
    null_reason: nullReason,
    /** Where the ISIN and the CUSIP were read (the identifiers importer writes them). */
    isin_origin: factOrigin.optional(),
    cusip_origin: factOrigin.optional(),
  })
  .superRefine(reasonFor('isin', 'null_reason'));

export const riskFactorDeclaration = z.record(
  z.enum(['credit', 'liquidity', 'counterparty', 'smart_contract', 'regulatory', 'operational']),
  z.record(z.string(), z.string()),
);

/**
 * Why a risk factor holds its value, where the editor does not state it: `reason` for a factor
 * that is `unknown` (required: the profile serves it), or `rule` for a value a named rule set from
 * stated facts (the profile then says `derived: true` and names the rule).
 */
export const riskFactorNote = z.union([
  z.strictObject({ reason: nonEmptyText }),
  z.strictObject({ rule: kebabId }),
]);
export const riskFactorNotes = z.partialRecord(
  z.enum(['credit', 'liquidity', 'counterparty', 'smart_contract', 'regulatory', 'operational']),
  z.record(z.string(), riskFactorNote),
);
export type RiskFactorNotes = z.infer<typeof riskFactorNotes>;

export const money = z.strictObject({
  value: z.number().nonnegative({ error: 'must be zero or more' }),
  currency: currencyCode,
});

export const assetAmount = z.strictObject({
  kind: z.enum(['aum', 'outstanding', 'issued']),
  value: z.number().positive({ error: 'must be a positive number in units of the currency' }),
  currency: currencyCode,
  as_of: isoDate,
  source: kebabId,
  ...figureHistoryFields,
});

export const settlementMechanism = z.enum([
  'onchain_dvp_atomic',
  'onchain_stablecoin',
  'onchain_token_offchain_cash',
  'csd_dvp',
  'bank_ledger_internal',
]);

export const lifecycleStatus = z.enum([
  'announced',
  'active',
  'matured',
  'redeemed',
  'suspended',
  'closed',
]);
export const validationLevel = z.enum(['unverified', 'L1', 'L2', 'L3']);

/** How a technical fact was established: read from the ledger, or a dated explorer, issuer or CSD record. */
export const evidenceMethod = z.enum(['rpc', 'explorer', 'issuer_record', 'csd_record']);

/**
 * Where an issuer's own record of its contracts was read, when the record is not one of the asset's
 * `sources` (an issuer's deployment file or token list in a repository it owns, or an address table
 * on its site transcribed in data/sources/issuer-addresses.csv).
 */
export const issuerRecordRef = z.strictObject({
  publisher: nonEmptyText,
  title: nonEmptyText,
  url: z.url({ protocol: /^https?$/, error: 'must be a full http:// or https:// URL' }),
  ...repositoryPlace,
});
export type IssuerRecordRef = z.infer<typeof issuerRecordRef>;

/** L1 evidence for one ledger entry: the contract (and its supply where shown), with the method that showed it. */
export const technicalEvidence = z.strictObject({
  ledger: code(/^[A-Z]{3}$/, 'ETH'),
  contract_address: evmAddress.nullable(),
  method: evidenceMethod,
  source: kebabId.nullable(),
  token_standard: nonEmptyText.nullish(),
  supply: z.number().nonnegative().nullish(),
  as_of: isoDate,
  // Written by the on-ledger importer (method rpc): where and when the read was made.
  chain_id: z.number().int().positive().optional(),
  block_number: z.number().int().nonnegative().optional(),
  block_time: z.iso.datetime().optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  decimals: z.number().int().min(0).max(255).optional(),
  /** rpc: whether the address held contract code at the block (false: nothing to read there). */
  code: z.boolean().optional(),
  /** rpc: the EIP-1967 implementation behind a proxy at that block (the calls went through the proxy). */
  implementation: evmAddress.optional(),
  /** issuer_record: the issuer's record itself, when it is not one of the asset's sources. */
  record: issuerRecordRef.optional(),
});
export type TechnicalEvidence = z.infer<typeof technicalEvidence>;

export const validation = z.strictObject({
  level: validationLevel,
  basis: nonEmptyText,
  evidence: z
    .strictObject({
      /** L1: contract, token standard and supply per ledger entry. */
      technical: z.array(technicalEvidence).optional(),
      /** L2: source ids of the prospectus or regulatory filings read. */
      documents: z.array(kebabId).optional(),
      /** L3: source ids of the CSD, registrar or transfer-agent confirmation. */
      confirmation: z.array(kebabId).optional(),
      /** Technical evidence a later read contradicted or replaced, kept for review (never counts). */
      history: z.array(technicalEvidence).optional(),
    })
    .optional(),
});
export type Validation = z.infer<typeof validation>;

/** The evidence of a record with every list present (records are read as written, without defaults). */
export function evidenceOf(v: Validation) {
  return {
    technical: v.evidence?.technical ?? [],
    documents: v.evidence?.documents ?? [],
    confirmation: v.evidence?.confirmation ?? [],
    ...(v.evidence?.history?.length ? { history: v.evidence.history } : {}),
  };
}

/** What a record is: a single asset, a programme (its series inherit what it states), or a series. */
export const recordKind = z.enum(['asset', 'programme', 'series']);
export type RecordKind = z.infer<typeof recordKind>;

/**
 * The record's parent: the fund whose share class it is, the token it wraps, or the master fund it
 * feeds. Counts and totals count a fund once; a share class inherits the fund-level facts its
 * parent states (src/authoring/parents.ts).
 */
export const parentLink = z.strictObject({
  tfin,
  relation: z.enum(['share_class_of', 'wraps', 'feeder_of']),
});

/**
 * Access and transfer facts as an aggregator states them (DefiLlama's RWA sheet: ✓/x columns and
 * its access model), with the row they were read from; null where the cell states neither.
 */
export const accessFacts = z.strictObject({
  access_model: z
    .enum(['permissionless', 'permissioned', 'non_transferable', 'custodial_only'])
    .nullable(),
  redeemable: z.boolean().nullable(),
  exchange_listed: z.boolean().nullable(),
  kyc_to_mint_or_redeem: z.boolean().nullable(),
  allowlist_to_transfer_or_hold: z.boolean().nullable(),
  transferable: z.boolean().nullable(),
  self_custody: z.boolean().nullable(),
  attestations: z.boolean().nullable(),
  origin: factOrigin,
});

/** What a series tracks or holds: the share, fund or index by name, ticker and ISIN where known. */
export const underlying = z.strictObject({
  /** Null where the source gives only the ticker. */
  name: nonEmptyText.nullable(),
  ticker: nonEmptyText.nullable(),
  isin: isin.nullable(),
});

const launchDates = {
  /** Null when no source dates the launch; the reason says so (operating history is then `unknown`). */
  launch_date: isoDate.nullable(),
  launch_null_reason: nullReason,
};

export const assetRecord = z
  .strictObject({
    tfin,
    /** Absent: a single asset. `programme`: its series (data/assets/series/) inherit what it states. */
    kind: z.enum(['asset', 'programme']).optional(),
    name: nonEmptyText,
    short_name: nonEmptyText.nullable(),
    tfic: code(/^[A-Z]{4}\.[A-Z]{4}$/, 'FUND.MMFD'),
    description: nonEmptyText,
    /** The fund, wrapped token or master fund this record belongs to (see parentLink). */
    parent: parentLink.optional(),
    issuer: assetIssuer,
    ledgers: z.array(assetLedger).min(1, { error: 'list at least the ledger of first issuance' }),
    identifiers: assetIdentifiers,
    mica: z.strictObject({
      status: code(/^[a-z_]+$/, 'financial_instrument'),
      rationale: nonEmptyText,
    }),
    custody: z.strictObject({
      custodian: nonEmptyText.nullable(),
      transfer_agent: nonEmptyText.nullable(),
      model: code(/^[a-z_]+$/, 'qualified_custodian'),
      segregation: code(/^[a-z_]+$/, 'segregated'),
      custodian_status: code(/^[a-z_]+$/, 'regulated'),
      register: code(/^[a-z_]+$/, 'independent'),
    }),
    settlement: z.strictObject({
      mechanism: settlementMechanism,
      cash_leg: nonEmptyText,
      finality: nonEmptyText,
    }),
    risk_factors: riskFactorDeclaration,
    /** Reasons of unknown factors and the rules that set derived ones (see riskFactorNote). */
    risk_factor_notes: riskFactorNotes.optional(),
    validation,
    amount: assetAmount.nullable(),
    amount_null_reason: nullReason,
    minimum_investment: money.nullable(),
    minimum_investment_null_reason: nullReason,
    dates: z
      .strictObject({
        ...launchDates,
        maturity_date: isoDate.nullable(),
        maturity_null_reason: nullReason,
        /** When a matured, redeemed or closed asset ended (operating history stops there). */
        end_date: isoDate.nullish(),
      })
      .superRefine(reasonFor('maturity_date', 'maturity_null_reason'))
      .superRefine(reasonFor('launch_date', 'launch_null_reason')),
    lifecycle_status: lifecycleStatus,
    /** Access and transfer facts an aggregator states (see accessFacts). */
    access: accessFacts.optional(),
    sources,
    as_of: isoDate,
  })
  .superRefine((v, ctx) => {
    requireReason(v, ctx, 'amount', 'amount_null_reason');
    requireReason(v, ctx, 'minimum_investment', 'minimum_investment_null_reason');
  });

export type AssetRecord = Omit<z.infer<typeof assetRecord>, 'kind'> & {
  /** `series`, `programme` and `underlying` are set on records resolved from a series file (authoring/series.ts). */
  kind?: RecordKind | undefined;
  programme?: string;
  underlying?: z.infer<typeof underlying>;
};

/**
 * A series of a programme (data/assets/series/<TFIN>.yaml): what is its own (TFIN, ticker,
 * underlying, contract per ledger, ISIN, launch, status, sources). Issuer, custody, MiCA status,
 * settlement and risk factors are the programme's, stated once there.
 */
export const seriesRecord = z.strictObject({
  tfin,
  programme: tfin,
  name: nonEmptyText,
  short_name: nonEmptyText.nullable(),
  tfic: code(/^[A-Z]{4}\.[A-Z]{4}$/, 'EQTY.TRCK').optional(),
  description: nonEmptyText.nullable(),
  underlying,
  ledgers: z.array(assetLedger).min(1, { error: 'list at least the ledger of first issuance' }),
  identifiers: assetIdentifiers,
  validation,
  dates: z.strictObject(launchDates).superRefine(reasonFor('launch_date', 'launch_null_reason')),
  lifecycle_status: lifecycleStatus,
  sources,
  as_of: isoDate,
});
export type SeriesRecord = z.infer<typeof seriesRecord>;
