// Stablecoin market structure as data editors write it: data/stablecoins/<id>.yaml,
// data/venues.yaml and data/fx.yaml.
import { z } from 'zod';
import {
  countryCode,
  currencyCode,
  factOrigin,
  figureHistoryFields,
  historyPoint,
  isoDate,
  kebabId,
  nonEmptyText,
  nullReason,
  reasonFor,
  requireReason,
  sources,
} from './common.ts';
import { isValidIsin, isValidLei } from './identifiers.ts';

/** The currency a stablecoin is pegged to (ISO 4217): USD and EUR above all, also CHF, GBP, SEK, PLN, … */
export const pegCurrency = currencyCode;
export const micaClassification = z.enum(['emt', 'art', 'not_a_mica_token']);

/** What an authorisation date is (`mica.authorisation.date_kind`), each described where it is served. */
export const MICA_DATE_KINDS = {
  institution_authorisation:
    "The issuer's authorisation as a credit institution or e-money institution under banking or e-money law, which is what MiCA asks of an e-money-token issuer (Art. 48(1)). A date before 30 June 2024, when MiCA's rules for e-money tokens began to apply, can only be this.",
  white_paper_notification:
    "The notification of the token's white paper to the competent authority (MiCA Art. 51(11)): ESMA's register gives this as the row's authorisation-or-notification date.",
  mica_authorisation:
    'An authorisation granted under MiCA itself: an issuer of asset-referenced tokens (Title III) or a crypto-asset service provider (Title V).',
  not_stated:
    "ESMA's register gives the date as an authorisation-or-notification date, and it is neither before MiCA's rules for e-money tokens applied nor within a week of a white paper's notification by the issuer: what it dates is not stated.",
} as const;
export const micaDateKind = z
  .enum(
    Object.keys(MICA_DATE_KINDS) as [
      keyof typeof MICA_DATE_KINDS,
      ...(keyof typeof MICA_DATE_KINDS)[],
    ],
  )
  .describe(
    Object.entries(MICA_DATE_KINDS)
      .map(([k, v]) => `\`${k}\`: ${v}`)
      .join(' '),
  );
export type MicaDateKind = z.infer<typeof micaDateKind>;

/** A previous value of a coin figure: the shared history point, with the figure's own precision facts. */
export const coinHistoryPoint = historyPoint.extend({
  period: z.strictObject({ start: isoDate, end: isoDate }).optional(),
  precision: z.number().positive().optional(),
  origin: factOrigin.optional(),
});

/**
 * One dated figure of a coin (its key says the kind: `circulating_supply` counts tokens in
 * circulation as the source defines them, `market_cap` is a value in the peg currency). A figure
 * without a value has no date and no source: `value_null_reason` says why no figure is known.
 */
const datedFigure = z
  .strictObject({
    value: z.number().positive().nullable(),
    value_null_reason: nullReason,
    currency: currencyCode.optional(),
    as_of: isoDate.nullable(),
    source: kebabId.nullable(),
    /** The period a report covers (a month, a quarter), when the figure is a report's. */
    period: z.strictObject({ start: isoDate, end: isoDate }).optional(),
    /** The unit the value is rounded to as published (e.g. 100000000: tenths of a billion). */
    precision: z.number().positive().optional(),
    /** Where an importer read the value (a transcription's repository, path, line, commit). */
    origin: factOrigin.optional(),
    stale_reason: figureHistoryFields.stale_reason,
    history: z.array(coinHistoryPoint).optional(),
  })
  .superRefine((f, ctx) => {
    requireReason(f, ctx, 'value', 'value_null_reason');
    for (const field of ['as_of', 'source'] as const) {
      if (f.value !== null && f[field] === null)
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required when value is given' });
      if (f.value === null && f[field] !== null)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message:
            'must be null when value is null: a figure that is not known has no date or source',
        });
    }
    if (f.period && f.period.start > f.period.end)
      ctx.addIssue({ code: 'custom', path: ['period'], message: 'starts after it ends' });
  });
export type CoinFigure = z.infer<typeof datedFigure>;

/**
 * Whether a coin still does what a stablecoin does: `live`; `depegged` (lost its peg);
 * `wound_down` (its issuer stopped issuing and redeeming); `inactive` (the aggregator lists it as
 * dead, delisted or deprecated without stating why). Coins that are not live are shown, and left
 * out of totals and shares.
 */
export const coinStatus = z
  .strictObject({
    value: z.enum(['live', 'depegged', 'wound_down', 'inactive']),
    since: isoDate.nullable(),
    since_null_reason: nullReason,
    /** What is known, in words for users (e.g. who says so, and what the date means). */
    basis: nonEmptyText,
    source: kebabId,
    origin: factOrigin.optional(),
  })
  .superRefine((s, ctx) => {
    if (s.value !== 'live') requireReason(s, ctx, 'since', 'since_null_reason');
  });
export type CoinStatus = z.infer<typeof coinStatus>;

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
        // EVM, base58 (Solana, TRON), Stellar, other chains' token ids, and Cosmos denominations
        // (`ibc/<hash>`, `factory/<creator>/<subdenom>`).
        /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}|[A-Z0-9]{56}|[a-zA-Z0-9:._-]{8,130}|ibc\/[0-9A-F]{64}|factory\/[a-z0-9]{20,90}\/[a-zA-Z0-9._-]{1,90})$/,
        {
          error: 'must be the contract address or token identifier exactly as published',
        },
      )
      .nullable(),
    contract_address_null_reason: nullReason,
    origin: factOrigin.optional(),
    /**
     * totalSupply read from the ledger at one block (written by the on-ledger importer): every
     * token the contract counts, which is not the coin's circulating supply (the issuer's own
     * holdings and bridge escrows are included), so it is never added to circulating figures.
     */
    supply: z
      .strictObject({
        kind: z.literal('total_supply'),
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

/**
 * A wallet on one ledger in which the issuer keeps its own tokens out of circulation
 * (`unreleased`: minted, not yet issued; `reserves`: the issuer's or protocol's reserve;
 * `uncirculating`: otherwise held back), as the contract list names it. Its balance of the coin's
 * issued contract on that ledger is subtracted from the ledger sum.
 */
export const issuerWallet = z.strictObject({
  ledger: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'must be a ledger code such as "ETH"' })
    .describe('The ledger the wallet is on.'),
  address: z.string().regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{25,44}|[A-Z2-7]{58})$/, {
    error: 'must be the wallet address exactly as published',
  }),
  kind: z
    .enum(['unreleased', 'reserves', 'uncirculating'])
    .describe('How the contract list types the wallet: unreleased, reserves or uncirculating.'),
  origin: factOrigin.optional(),
});
export type IssuerWallet = z.infer<typeof issuerWallet>;

/** One issued contract read for a ledger sum: its total supply and the issuer's balances in it, at one block. */
const ledgerRead = z.strictObject({
  ledger: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .describe('The ledger read.'),
  contract_address: z.string().describe('The issued contract read.'),
  chain_id: z.number().int().positive().describe('The EIP-155 chain id the endpoint reported.'),
  block_number: z.number().int().nonnegative().describe('The block read at.'),
  block_time: z.iso.datetime().describe("The block's time (UTC)."),
  total_supply: z
    .number()
    .nonnegative()
    .describe("The contract's totalSupply at that block, in tokens."),
  /** The issuer's wallets on this ledger and their balance of this contract, subtracted. */
  issuer_held: z.array(
    z.strictObject({
      address: z.string(),
      kind: issuerWallet.shape.kind,
      balance: z.number().nonnegative(),
    }),
  ),
});

/**
 * A coin's circulating supply summed from its ledgers (written by the `coin-supply` importer):
 * the total supply of every `issued` deployment read, less the issuer's own unreleased or reserve
 * balances in it; bridged copies are left out (they are counted where they were issued). Every
 * read is listed with its block and time; every issued deployment not read is listed with why.
 * `complete` is true only when every issued deployment was read: a partial sum is a lower bound,
 * kept and shown, never compared.
 */
export const ledgerCirculatingSupply = z.strictObject({
  kind: z.literal('ledger_sum'),
  value: z
    .number()
    .nonnegative()
    .describe('Tokens in circulation: the issued contracts read, less the issuer-held balances.'),
  as_of: isoDate.describe('The day of the earliest block read.'),
  complete: z
    .boolean()
    .describe('Whether every issued deployment was read; a partial sum is a lower bound.'),
  reads: z.array(ledgerRead).min(1).describe('Each issued contract read, at its block.'),
  not_read: z
    .array(
      z.strictObject({
        ledger: z.string().regex(/^[A-Z]{3}$/),
        contract_address: z.string().nullable(),
        reason: nonEmptyText.describe('Why it was not read.'),
      }),
    )
    .describe('Each issued deployment not read, with why.'),
});
export type LedgerCirculatingSupply = z.infer<typeof ledgerCirculatingSupply>;

const dtiCode = z.string().regex(/^[0-9B-DF-HJ-NP-TV-Z]{9}$/, {
  error: 'must be the 9-character DTI exactly as published (ISO 24165: digits and consonants)',
});
const ledgerCode = z.string().regex(/^[A-Z]{3}$/, { error: 'must be a ledger code such as "ETH"' });

/** The EMT white paper of the coin in ESMA's register (EMTWP.csv). */
export const whitePaper = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).nullable(),
  url_null_reason: nullReason,
  notified: isoDate.nullable(),
  last_update: isoDate.nullable(),
  source: kebabId,
  origin: factOrigin.optional(),
});

export const stablecoinRecord = z
  .strictObject({
    id: kebabId,
    symbol: z.string().regex(/^[A-Za-z0-9₮][A-Za-z0-9₮.+-]{1,11}$/, {
      error: 'must be the ticker as published, e.g. "USDC" or "EUR.PA"',
    }),
    name: nonEmptyText,
    /** live, depegged, wound down or inactive, with its date and source. */
    status: coinStatus,
    /**
     * Digital Token Identifier (ISO 24165) of the coin: the functionally fungible group's DTI
     * where the register gives one, else the token's only DTI.
     */
    dti: dtiCode.nullish(),
    dti_null_reason: nullReason,
    dti_origin: factOrigin.optional(),
    /** The per-ledger DTIs the register lists, with the ledger where it names one. */
    ledger_dtis: z
      .array(
        z.strictObject({
          dti: dtiCode,
          ledger: ledgerCode.nullable(),
          /** The ledger as the register names it, when it names one. */
          ledger_name: nonEmptyText.nullable(),
        }),
      )
      .optional(),
    /** ISIN (ISO 6166), where a numbering agency has given the token one. */
    isin: z
      .string()
      .refine(isValidIsin, {
        error: 'is not a valid ISIN: 12 characters whose ISO 6166 check digit holds',
      })
      .nullable()
      .optional(),
    isin_null_reason: nullReason,
    isin_origin: factOrigin.optional(),
    /** The coin's ids at the aggregators the importers read (matching key; not identifiers of the token). */
    aggregator_ids: z
      .strictObject({
        defillama: z
          .string()
          .regex(/^[0-9]+$/)
          .nullable(),
        coingecko: z.string().min(1).nullable(),
      })
      .optional(),
    issuer: z
      .strictObject({
        name: nonEmptyText,
        /** The legal entity that issues the token; null with a reason when no source names it (never the token's name). */
        issuing_entity: nonEmptyText.nullable(),
        issuing_entity_null_reason: nullReason,
        lei: z
          .string()
          .refine(isValidLei, {
            error: 'is not a valid LEI: 20 characters whose ISO 17442 check digits hold',
          })
          .nullable(),
        lei_null_reason: nullReason,
        lei_origin: factOrigin.optional(),
        jurisdiction: countryCode.nullable(),
        jurisdiction_null_reason: nullReason,
        website: z.url({ protocol: /^https?$/ }).optional(),
      })
      .superRefine((v, ctx) => {
        requireReason(v, ctx, 'issuing_entity', 'issuing_entity_null_reason');
        requireReason(v, ctx, 'lei', 'lei_null_reason');
        requireReason(v, ctx, 'jurisdiction', 'jurisdiction_null_reason');
      }),
    peg_currency: pegCurrency,
    /** How the peg is held: specific reserve kinds where the issuer states them, else the broad mechanism. */
    backing: z.enum([
      'fiat_cash_and_treasuries',
      'fiat_cash_and_deposits',
      'fiat_reserves',
      'crypto_overcollateralised',
      'crypto_backed',
      'synthetic_delta_neutral',
      'algorithmic',
      'mixed_reserves',
    ]),
    /** The ledgers the coin is issued or bridged on; empty only with `ledgers_null_reason`. */
    ledgers: z.array(ledgerCode),
    ledgers_null_reason: nullReason,
    /** Per-ledger token contracts (ledger codes also listed in `ledgers`). */
    deployments: z.array(stablecoinDeployment).optional(),
    /** The issuer's own wallets that hold tokens out of circulation, per ledger. */
    issuer_wallets: z
      .array(issuerWallet)
      .optional()
      .describe(
        "The issuer's own wallets holding tokens out of circulation (unreleased, reserves), per ledger, as the contract list names them; their balances are subtracted from the ledger sum.",
      ),
    market_cap: datedFigure,
    circulating_supply: datedFigure,
    /** Circulating supply summed from the ledgers at the last refresh (see ledgerCirculatingSupply). */
    ledger_circulating_supply: ledgerCirculatingSupply
      .optional()
      .describe(
        'Circulating supply summed from the ledgers at the last refresh: total supply of every issued deployment read, less the issuer-held balances, bridged copies left out; with the blocks read and the deployments not read. Compared in dominance only when complete.',
      ),
    mica: z
      .strictObject({
        classification: micaClassification.nullable(),
        classification_null_reason: nullReason,
        classification_rationale: nonEmptyText,
        white_paper: whitePaper.nullable().optional(),
        authorisation: z
          .strictObject({
            status: z.enum(['authorised', 'not_authorised', 'pending']),
            institution_type: z
              .enum(['electronic_money_institution', 'credit_institution'])
              .nullable(),
            /** Why an authorised issuer's institution type is not given (the register states none). */
            institution_type_null_reason: nullReason,
            home_member_state: countryCode.nullable(),
            competent_authority: nonEmptyText.nullable(),
            date: isoDate.nullable(),
            /** What `date` is (MICA_DATE_KINDS); given with every date. */
            date_kind: micaDateKind.nullish(),
            date_null_reason: nullReason,
            register_source: kebabId.nullable(),
          })
          // An authorised issuer's authorisation date is given, or its absence explained; a date says what it is.
          .superRefine((a, ctx) => {
            if (a.status === 'authorised') requireReason(a, ctx, 'date', 'date_null_reason');
            if (a.date !== null && !a.date_kind)
              ctx.addIssue({
                code: 'custom',
                path: ['date_kind'],
                message: `is required with a date: say what the date is (${Object.keys(MICA_DATE_KINDS).join(', ')})`,
              });
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
  })
  .superRefine((c, ctx) => {
    if (c.ledgers.length === 0 && !c.ledgers_null_reason)
      ctx.addIssue({
        code: 'custom',
        path: ['ledgers_null_reason'],
        message: 'is required when ledgers is empty',
      });
    if (c.isin === null && !c.isin_null_reason)
      ctx.addIssue({
        code: 'custom',
        path: ['isin_null_reason'],
        message: 'is required when isin is null',
      });
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

/**
 * How a whole-market total was counted: `issuer_sum` (issuers' own reports added up),
 * `aggregator_total` (an aggregator's total of the coins it tracks) or `ledger_sum` (token
 * balances or supplies read from the ledgers and added up).
 */
export const marketTotalKind = z.enum(['issuer_sum', 'aggregator_total', 'ledger_sum']);

/** The part of the market a total counts: every stablecoin, or the USD-pegged ones only. */
export const marketTotalScope = z.enum(['all_stablecoins', 'usd_pegged']);

/**
 * One dated total of the whole stablecoin market (data/stablecoin-market-totals.yaml), with the
 * shares or values its source states for single coins (`stated_split`), so that a market share
 * computed from issuers' figures can be held against the total's own split.
 */
export const marketTotal = z.strictObject({
  id: kebabId,
  value_usd: z.number().positive(),
  as_of: isoDate,
  kind: marketTotalKind,
  scope: marketTotalScope,
  /** What is counted, in words for users (e.g. "market capitalisation of the stablecoins DefiLlama tracks"). */
  measure: nonEmptyText,
  /** Who counted the total (the aggregator, the dashboard's data, the issuers), as readers know them. */
  counted_by: nonEmptyText,
  /** The unit the value is rounded to as published (e.g. 1000000000: whole billions). */
  precision: z.number().positive().optional(),
  source: kebabId,
  stated_split: z
    .array(
      z
        .strictObject({
          coin: kebabId,
          value_usd: z.number().positive().nullable(),
          share_pct: z.number().min(0).max(100).nullable(),
        })
        .refine((s) => s.value_usd !== null || s.share_pct !== null, {
          error: 'give the value or the share the source states for the coin',
        }),
    )
    .optional(),
});
export type MarketTotal = z.infer<typeof marketTotal>;

export const marketTotalsFile = z.strictObject({ totals: z.array(marketTotal), sources });
export type MarketTotalsFile = z.infer<typeof marketTotalsFile>;
