// Stablecoin market structure as data editors write it: data/stablecoins/<id>.yaml,
// data/venues.yaml and data/fx.yaml.
import { z } from 'zod';
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
  requireReason,
  sources,
} from './common.ts';
import { isValidLei } from './identifiers.ts';

/** The currency a stablecoin is pegged to (ISO 4217): USD and EUR above all, also CHF, GBP, SEK, PLN, … */
export const pegCurrency = currencyCode;
export const micaClassification = z.enum(['emt', 'art', 'not_a_mica_token']);

const datedFigure = z
  .strictObject({
    value: z.number().positive().nullable(),
    value_null_reason: nullReason,
    currency: currencyCode.optional(),
    as_of: isoDate,
    source: kebabId,
    ...figureHistoryFields,
  })
  .superRefine(reasonFor('value', 'value_null_reason'));

/**
 * One ledger on which a stablecoin exists as a token contract: `issued` (minted there by the
 * issuer or its protocol) or `bridged` (a representation locked or burned elsewhere, from
 * `bridged_from`). Wallets and escrow contracts are not deployments.
 */
export const stablecoinDeployment = z
  .strictObject({
    ledger: z.string().regex(/^[A-Z]{3}$/, { error: 'must be a ledger code such as "ETH"' }),
    kind: z.enum(['issued', 'bridged']),
    bridged_from: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullish(),
    contract_address: z
      .string()
      .regex(
        /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}|[A-Z0-9]{56}|[a-zA-Z0-9:._-]{8,130})$/,
        {
          error: 'must be the contract address or token identifier exactly as published',
        },
      )
      .nullable(),
    contract_address_null_reason: nullReason,
    origin: factOrigin.optional(),
    /** totalSupply read from the ledger at one block (written by the on-ledger importer). */
    supply: z
      .strictObject({
        value: z.number().nonnegative(),
        as_of: isoDate,
        chain_id: z.number().int().positive(),
        block_number: z.number().int().nonnegative(),
        block_time: z.iso.datetime(),
        decimals: z.number().int().min(0).max(255),
      })
      .optional(),
  })
  .superRefine(reasonFor('contract_address', 'contract_address_null_reason'));
export type StablecoinDeployment = z.infer<typeof stablecoinDeployment>;

export const stablecoinRecord = z.strictObject({
  id: kebabId,
  symbol: z.string().regex(/^[A-Za-z0-9₮][A-Za-z0-9₮.]{1,11}$/, {
    error: 'must be the ticker as published, e.g. "USDC" or "EUR.PA"',
  }),
  name: nonEmptyText,
  /** Digital Token Identifier (ISO 24165), from ESMA's white-paper register or the DTI Foundation. */
  dti: z
    .string()
    .regex(/^[0-9B-DF-HJ-NP-TV-Z]{9}$/, {
      error: 'must be the 9-character DTI exactly as published (ISO 24165: digits and consonants)',
    })
    .nullish(),
  dti_null_reason: nullReason,
  issuer: z
    .strictObject({
      name: nonEmptyText,
      issuing_entity: nonEmptyText,
      lei: z
        .string()
        .refine(isValidLei, {
          error: 'is not a valid LEI: 20 characters whose ISO 17442 check digits hold',
        })
        .nullable(),
      lei_null_reason: nullReason,
      jurisdiction: countryCode.nullable(),
      jurisdiction_null_reason: nullReason,
    })
    .superRefine((v, ctx) => {
      requireReason(v, ctx, 'lei', 'lei_null_reason');
      requireReason(v, ctx, 'jurisdiction', 'jurisdiction_null_reason');
    }),
  peg_currency: pegCurrency,
  backing: z.enum([
    'fiat_cash_and_treasuries',
    'fiat_cash_and_deposits',
    'crypto_overcollateralised',
    'synthetic_delta_neutral',
    'mixed_reserves',
  ]),
  ledgers: z.array(z.string().regex(/^[A-Z]{3}$/)).min(1),
  /** Per-ledger token contracts (ledger codes also listed in `ledgers`). */
  deployments: z.array(stablecoinDeployment).optional(),
  market_cap: datedFigure,
  circulating_supply: datedFigure,
  mica: z
    .strictObject({
      classification: micaClassification.nullable(),
      classification_null_reason: nullReason,
      classification_rationale: nonEmptyText,
      authorisation: z
        .strictObject({
          status: z.enum(['authorised', 'not_authorised', 'pending']),
          institution_type: z
            .enum(['electronic_money_institution', 'credit_institution'])
            .nullable(),
          home_member_state: countryCode.nullable(),
          competent_authority: nonEmptyText.nullable(),
          date: isoDate.nullable(),
          date_null_reason: nullReason,
          register_source: kebabId.nullable(),
        })
        // An authorised issuer's authorisation date is given, or its absence explained.
        .superRefine((a, ctx) => {
          if (a.status === 'authorised') requireReason(a, ctx, 'date', 'date_null_reason');
        }),
      eu_venue_restrictions: z.array(
        z.strictObject({
          venue: nonEmptyText,
          action: z.enum(['delisted', 'restricted', 'not_listed_for_eea']),
          date: isoDate,
          source: kebabId,
        }),
      ),
    })
    .superRefine(reasonFor('classification', 'classification_null_reason')),
  reserve_attestation: z.strictObject({
    attestor: nonEmptyText.nullable(),
    attestor_null_reason: nullReason,
    frequency: z.enum(['daily', 'weekly', 'monthly', 'quarterly', 'none_published']).nullable(),
    frequency_null_reason: nullReason,
    standard: nonEmptyText.nullable(),
    standard_null_reason: nullReason,
    latest_report_date: isoDate.nullable(),
    latest_report_date_null_reason: nullReason,
    reserve_composition: nonEmptyText.nullable(),
    reserve_composition_null_reason: nullReason,
    source: kebabId.nullable(),
  }),
  sources,
  as_of: isoDate,
});
export type StablecoinRecord = z.infer<typeof stablecoinRecord>;

export const institutionalRoute = z.enum(['otc', 'prime', 'api_direct', 'custody_settlement']);

export const venue = z
  .strictObject({
    id: kebabId,
    name: nonEmptyText,
    operating_entity: nonEmptyText,
    type: z.enum([
      'centralised_exchange',
      'broker_dealer',
      'otc_desk',
      'mtf',
      'dlt_trading_settlement_system',
      'prime_broker',
    ]),
    headquarters: countryCode.nullable(),
    headquarters_null_reason: nullReason,
    mica_casp: z
      .strictObject({
        authorised: z.boolean().nullable(),
        authorised_null_reason: nullReason,
        member_state: countryCode.nullable(),
        authority: nonEmptyText.nullable(),
        date: isoDate.nullable(),
        date_null_reason: nullReason,
        source: kebabId.nullable(),
      })
      .superRefine(reasonFor('authorised', 'authorised_null_reason')),
    stablecoins_listed: z.array(kebabId),
    institutional_routes: z.array(institutionalRoute),
    sources,
  })
  .superRefine(reasonFor('headquarters', 'headquarters_null_reason'));

export type Venue = z.infer<typeof venue>;

export const venuesFile = z.strictObject({ as_of: isoDate, venues: z.array(venue) });
export type VenuesFile = z.infer<typeof venuesFile>;

export const fxFile = z.strictObject({
  rates: z.array(
    z.strictObject({
      base: currencyCode,
      quote: currencyCode,
      rate: z.number().positive(),
      date: isoDate,
      source: kebabId,
    }),
  ),
  sources,
});
export type FxFile = z.infer<typeof fxFile>;

/** Points of the MiCA compliance rating and the adoption weights (data/codes/stablecoin-scores.yaml). */
export const stablecoinScoresTable = z.strictObject({
  version: nonEmptyText,
  compliance_rating: z.strictObject({
    authorisation: z.record(
      z.enum(['authorised', 'pending', 'not_authorised']),
      z.number().int().min(0).max(100),
    ),
    attestation_frequency: z.record(
      z.enum(['daily', 'weekly', 'monthly', 'quarterly', 'none_published', 'unknown']),
      z.number().int().min(0).max(100),
    ),
    attestation_standard_named: z.number().int().min(0).max(100),
    no_eu_venue_restrictions: z.number().int().min(0).max(100),
    issuer_lei_published: z.number().int().min(0).max(100),
    scale: z.array(
      z.strictObject({
        rating: z.string().regex(/^[A-E]$/),
        min_points: z.number().int().min(0),
        meaning: nonEmptyText,
      }),
    ),
  }),
  adoption: z.strictObject({
    weights: z.strictObject({
      listed: z.number().min(0),
      mica_authorised_listed: z.number().min(0),
      institutional_listed: z.number().min(0),
    }),
    institutional_routes: z.array(institutionalRoute).min(1),
  }),
});
export type StablecoinScoresTable = z.infer<typeof stablecoinScoresTable>;
