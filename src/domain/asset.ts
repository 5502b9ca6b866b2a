// The asset record as a data editor writes it (data/assets/<TFIN>.yaml).
// Code values (TFIC, ledgers, MiCA status, custody, risk factors) are checked against the
// code tables by the cross-file checks in src/dataset/checks.ts, not enumerated here.
import { z } from 'zod';
import { TFIN_PATTERN, isValidIsin, isValidLei } from './identifiers.ts';
import {
  countryCode,
  currencyCode,
  isoDate,
  kebabId,
  nonEmptyText,
  nullReason,
  reasonFor,
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
  .regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}|[A-Z0-9]{56}|[a-zA-Z0-9:._-]{8,120})$/, {
    error: 'must be the contract address or token identifier exactly as published',
  });

export const assetIssuer = z
  .strictObject({
    name: nonEmptyText,
    sponsor: nonEmptyText.nullable(),
    lei: lei.nullable(),
    lei_null_reason: nullReason,
    jurisdiction: countryCode,
  })
  .superRefine(reasonFor('lei', 'lei_null_reason'));

export const assetLedger = z
  .strictObject({
    ledger: code(/^[A-Z]{3}$/, 'ETH'),
    token_standard: nonEmptyText.nullable(),
    contract_address: evmAddress.nullable(),
    contract_address_null_reason: nullReason,
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
    null_reason: nullReason,
  })
  .superRefine(reasonFor('isin', 'null_reason'));

export const riskFactorDeclaration = z.record(
  z.enum(['credit', 'liquidity', 'counterparty', 'smart_contract', 'regulatory', 'operational']),
  z.record(z.string(), z.string()),
);

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
export const validationLevel = z.enum(['L1', 'L2', 'L3']);

export const assetRecord = z
  .strictObject({
    tfin,
    name: nonEmptyText,
    short_name: nonEmptyText.nullable(),
    tfic: code(/^[A-Z]{4}\.[A-Z]{4}$/, 'FUND.MMFD'),
    description: nonEmptyText,
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
    validation: z.strictObject({ level: validationLevel, basis: nonEmptyText }),
    amount: assetAmount.nullable(),
    amount_null_reason: nullReason,
    minimum_investment: money.nullable(),
    minimum_investment_null_reason: nullReason,
    dates: z
      .strictObject({
        launch_date: isoDate,
        maturity_date: isoDate.nullable(),
        maturity_null_reason: nullReason,
      })
      .superRefine(reasonFor('maturity_date', 'maturity_null_reason')),
    lifecycle_status: lifecycleStatus,
    sources,
    as_of: isoDate,
  })
  .superRefine((v, ctx) => {
    requireReason(v, ctx, 'amount', 'amount_null_reason');
    requireReason(v, ctx, 'minimum_investment', 'minimum_investment_null_reason');
  });

export type AssetRecord = z.infer<typeof assetRecord>;
