// Response shapes of the API: the single source for the published JSON Schemas, the OpenAPI
// document and the response validation in tests.
import { z } from 'zod';
import {
  accessFacts,
  assetAmount,
  issuerRegistry,
  lifecycleStatus,
  money,
  parentLink,
  recordKind,
  settlementMechanism,
  tfin,
  validation,
  validationLevel,
} from './asset.ts';
import { historyPoint, source } from './common.ts';
import { micaDateKind } from './market.ts';

export const API_VERSION = 'v1';
export const REGISTRY_STANDARD = { version: '1.2', published: 'May 2026' } as const;
export const METHODOLOGY = { standard: 'GTDS', version: '2.1' } as const;

export const freshness = z
  .strictObject({
    dataset_date: z.iso.date().describe('The date the release describes; figures are aged at it.'),
    figures: z
      .number()
      .int()
      .min(0)
      .describe(
        'Dated figures counted: amounts of active assets, stablecoin market caps and supplies.',
      ),
    oldest: z.iso.date().nullable().describe('Date of the oldest such figure.'),
    median: z.iso.date().nullable().describe('Median date of those figures (the lower median).'),
    median_age_days: z.number().int().nullable(),
    within_12_months_pct: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe('Share of those figures dated within 365 days of the dataset date.'),
    within_max_age_pct: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        "Share of those figures within their kind's maximum age at the dataset date (source policy: /docs/methodology).",
      ),
    past_max_age: z
      .number()
      .int()
      .min(0)
      .describe(
        'How many of those figures are past their maximum age (each is flagged `stale: true` in its own record).',
      ),
    oldest_figure: z
      .strictObject({
        record: z.string().describe('The TFIN of the asset or the id of the stablecoin.'),
        figure: z.string().describe('Which figure of the record, e.g. `amount` or `market_cap`.'),
        as_of: z.iso.date(),
        age_days: z.number().int().min(0),
      })
      .nullable()
      .describe('The oldest figure, named.'),
  })
  .meta({ id: 'Freshness', description: 'How current the dataset is.' });

export const lastChangedField = z.iso
  .date()
  .describe(
    "The date the record last changed, derived from its data: the newest of its `as_of` dates (its own, its figures' and their history points'), `counts_as_of` and its sources' `published` dates (not `accessed`: a source re-read unchanged is not a change). A stablecoin's own `as_of` is the date its record was written, so it counts only when nothing else in the record is dated. `changed_since=` compares it.",
  );

const ageDays = z.number().int().min(0).describe("The figure's age in days at the dataset date.");
const stale = z
  .boolean()
  .describe(
    "True when the figure is past its kind's maximum age at the dataset date (source policy, /docs/methodology); `stale_reason` says why no newer figure exists when that is known. The final figure of an ended asset does not age.",
  );

/** An asset's amount as served: its age at the dataset date, and (in the profile) its history. */
export const servedAmount = z.strictObject({
  kind: assetAmount.shape.kind,
  value: assetAmount.shape.value,
  currency: assetAmount.shape.currency,
  as_of: z.iso.date(),
  age_days: ageDays,
  stale: stale,
  source: z.string(),
  value_usd: z
    .number()
    .nullable()
    .describe(
      'The amount in USD: as is for USD; otherwise at the ECB reference rate (data/fx.yaml) on or before the amount date and at most 62 days older, rounded to the unit; null when no such rate is in the data.',
    ),
  fx: z
    .strictObject({
      rate: z.number().positive().describe('USD per unit of the currency.'),
      date: z.iso.date().describe('Date of the ECB reference rate.'),
      source: z.string().nullable(),
    })
    .nullable()
    .describe('The rate used for `value_usd` (null for USD amounts and when there is none).'),
  usd_null_reason: z
    .string()
    .nullable()
    .describe(
      'Why `value_usd` is null: no ECB reference rate for the currency on or up to 62 days before the amount date is held. Null when the amount is in USD.',
    ),
});
export const profileAmount = servedAmount.extend({
  stale_reason: z
    .string()
    .nullable()
    .describe('Why the figure is older than the maximum age for its kind, when it is.'),
  history: z
    .array(historyPoint)
    .optional()
    .describe(
      'Previous values, newest first, each with its date and source. Present only with `include=history`.',
    ),
});
export { ageDays, stale };

export const meta = z
  .strictObject({
    api_version: z.literal(API_VERSION),
    registry_standard: z.strictObject({
      version: z.literal('1.2'),
      published: z.literal('May 2026'),
    }),
    methodology: z.strictObject({
      standard: z.literal('GTDS'),
      version: z.literal('2.1'),
      url: z.string(),
    }),
    dataset_version: z
      .string()
      .describe(
        'Version of the data release: its dataset date (data/release.yaml) and a content hash of data/.',
      ),
    as_of: z.iso.date().describe('Date of the latest dated fact in the dataset.'),
    generated_at: z.iso.datetime().describe('When the dataset was built.'),
    freshness: freshness,
  })
  .meta({ id: 'Meta', description: 'Provenance of every response: versions and dates.' });

const riskFactor = z.strictObject({
  value: z
    .string()
    .describe("The factor's value; `unknown` where no source states the fact (it has no points)."),
  points: z.number().int().nullable().describe('Null for `unknown`.'),
  derived: z
    .boolean()
    .describe(
      'True when a named rule (`rule`) set the value from stated facts; false when an editor stated it.',
    ),
  rule: z.string().nullable().describe('The rule that set a derived value; null for a stated one.'),
  reason: z.string().nullable().describe('Why the factor is `unknown`; null for a known value.'),
});
const scoreRange = z
  .strictObject({ min: z.number().int().min(0).max(100), max: z.number().int().min(0).max(100) })
  .describe(
    'The scores the factors allow: each unknown factor counted at its least and its most points; min = max = score when nothing is unknown.',
  );
const riskScore = {
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullable()
    .describe('Null when a factor under it is unknown: then only `range` is known.'),
  band: z.string().nullable().describe('The band of `score`; null with it.'),
  range: scoreRange,
  unknown_factors: z.number().int().min(0).describe('How many factors under it are `unknown`.'),
};
const riskVector = z.strictObject({
  ...riskScore,
  factors: z.record(z.string(), riskFactor),
});
const riskVectors = z.strictObject({
  credit: riskVector,
  liquidity: riskVector,
  counterparty: riskVector,
  smart_contract: riskVector,
  regulatory: riskVector,
  operational: riskVector,
});
export const risk = z
  .strictObject({
    overall: z.strictObject(riskScore),
    vectors: riskVectors,
  })
  .meta({
    id: 'RiskVectors',
    description:
      'Six risk vectors scored 0 (least risk) to 100 from declared factors (GTDS 2.1). A factor no source states is `unknown`: its vector and the overall score then have no score, only the range it could take, and count their unknown factors.',
  });

export const custody = z
  .strictObject({
    custodian: z.string().nullable(),
    transfer_agent: z.string().nullable(),
    model: z.string(),
    segregation: z.string(),
    custodian_status: z.string(),
    register: z.string(),
    grade: z.string().regex(/^[A-Z]$/),
    grade_points: z.number().int().min(0).max(100),
  })
  .meta({
    id: 'Custody',
    description: 'Custody metadata with the custody grade derived by the GTDS 2.1 custody rule.',
  });

const ledgerRef = z.strictObject({
  ledger: z.string(),
  name: z.string(),
  type: z.string(),
  token_standard: z.string().nullable(),
  contract_address: z.string().nullable(),
  contract_address_null_reason: z.string().nullable(),
});

export const micaAuthorisationStatus = z
  .enum(['authorised', 'not_authorised', 'not_applicable', 'unknown'])
  .describe(
    "`authorised`: ESMA's register lists the issuer for this kind of token; `not_authorised`: it does not; `not_applicable`: the classification engages no MiCA authorisation (a financial instrument, a deposit, a Title II crypto-asset, not offered in the EU); `unknown`: the register is not in the dataset.",
  );

const mica = z.strictObject({
  status: z
    .string()
    .describe(
      'The MiCA classification (a code of /v1/reference/codes `mica_status`): what MiCA makes of the token, not whether anyone is authorised to offer it.',
    ),
  name: z.string(),
  legal_basis: z.string(),
  rationale: z.string(),
  authorisation: z
    .strictObject({
      status: micaAuthorisationStatus,
      basis: z.string(),
      rule: z.literal('mica-register'),
      register: z.enum(['art', 'emt']).nullable(),
      date: z.iso.date().nullable(),
      date_kind: micaDateKind.nullable(),
    })
    .describe(
      "Derived at build by the rule `mica-register` from the classification and ESMA's interim registers.",
    ),
});

const recordKindField = recordKind.describe(
  '`asset`: a single asset; `programme`: a platform or fund whose series inherit its issuer, custody, MiCA status and risk factors; `series`: one token of a programme.',
);
const programmeField = tfin
  .nullable()
  .describe('TFIN of the programme a series belongs to; null for assets and programmes.');

export const assetSummary = z
  .strictObject({
    tfin,
    kind: recordKindField,
    programme: programmeField,
    parent: parentLink.nullable().optional(),
    name: z.string(),
    short_name: z.string().nullable(),
    asset_class: z.string(),
    tfic: z.string(),
    issuer: z.strictObject({
      name: z.string(),
      jurisdiction: z.string().nullable(),
      /** Absent in releases built before the list carried it. */
      lei: z.string().nullable().optional(),
    }),
    isin: z
      .string()
      .nullable()
      .optional()
      .describe(
        'The ISIN mapped to the record (absent in releases built before the list carried it).',
      ),
    ledgers: z.array(z.string()),
    contracts: z
      .array(z.string())
      .optional()
      .describe(
        "The contract per ledger entry as `<LEDGER>:<address>` (the profile lookup's `contract=` form), entries without a public contract left out; in CSV one cell, `;`-separated (absent in releases built before the list carried it).",
      ),
    mica_status: z.string(),
    mica_authorisation: micaAuthorisationStatus,
    custody,
    risk,
    validation_level: validationLevel,
    gtds_level: z.enum(['GTDS-0', 'GTDS-1', 'GTDS-2', 'GTDS-3']),
    amount: servedAmount.nullable(),
    lifecycle_status: lifecycleStatus,
    as_of: z.iso.date(),
    last_changed: lastChangedField,
  })
  .meta({
    id: 'AssetSummary',
    description: 'One registry record as the registry list (`listRegistryAssets`) shows it.',
  });

export const assetProfile = z
  .strictObject({
    tfin,
    kind: recordKindField,
    programme: programmeField,
    underlying: z
      .strictObject({
        name: z.string().nullable(),
        ticker: z.string().nullable(),
        isin: z.string().nullable(),
      })
      .nullable()
      .describe('What a series tracks or holds; null for a single asset or a programme.'),
    name: z.string(),
    short_name: z.string().nullable(),
    description: z.string(),
    classification: z.strictObject({
      asset_class: z.strictObject({ code: z.string(), name: z.string() }),
      tfic: z.strictObject({ code: z.string(), name: z.string() }),
    }),
    issuer: z.strictObject({
      name: z.string(),
      sponsor: z.string().nullable(),
      lei: z.string().nullable(),
      lei_null_reason: z.string().nullable(),
      jurisdiction: z.string().nullable(),
      jurisdiction_null_reason: z.string().nullable(),
      registry: issuerRegistry.optional(),
    }),
    parent: parentLink.nullable().optional(),
    access: accessFacts.nullable().optional(),
    ledgers: z.array(ledgerRef),
    isin_mapping: z.strictObject({
      isin: z.string().nullable(),
      cusip: z.string().nullable(),
      figi: z.string().nullable(),
      dti: z.string().nullable(),
      null_reason: z.string().nullable(),
    }),
    mica,
    custody,
    settlement: z.strictObject({
      mechanism: settlementMechanism,
      cash_leg: z.string(),
      finality: z.string(),
    }),
    risk,
    validation,
    gtds_compliance: z.strictObject({
      level: z.enum(['GTDS-0', 'GTDS-1', 'GTDS-2', 'GTDS-3']),
      criteria: z.array(z.strictObject({ id: z.string(), met: z.boolean() })),
    }),
    amount: profileAmount.nullable(),
    amount_null_reason: z.string().nullable(),
    minimum_investment: money.nullable(),
    minimum_investment_null_reason: z.string().nullable(),
    dates: z.strictObject({
      launch_date: z.iso.date().nullable(),
      launch_null_reason: z.string().nullable(),
      maturity_date: z.iso.date().nullable(),
      maturity_null_reason: z.string().nullable(),
      end_date: z.iso.date().nullable(),
    }),
    lifecycle_status: lifecycleStatus,
    sources: z.array(source),
    as_of: z.iso.date(),
    last_changed: lastChangedField,
  })
  .meta({
    id: 'AssetProfile',
    description:
      'The full profile of one asset, as the asset lookup (`getRegistryAsset`) serves it.',
  });

export const assetListBody = z
  .strictObject({
    data: z.array(assetSummary),
    meta: meta.extend({
      count: z.number().int().min(0).describe('Assets in this page.'),
      total: z.number().int().min(0).describe('Assets matching the query.'),
      without_usd: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          'With `sort=amount_usd`: how many of the matching assets have no amount in USD (no amount, or one no ECB rate converts: `amount.usd_null_reason`). They come last in both directions, not left out.',
        ),
      coverage: z.strictObject({
        assets: z.number().int(),
        /** Absent in releases built before the coverage counted products. */
        products: z.number().int().optional(),
        jurisdictions: z.array(z.string()),
        asset_classes: z.array(z.string()),
        ledgers: z.array(z.string()),
        /** Records per validation level; "verified" is L1 or above. */
        by_validation_level: z
          .strictObject({
            unverified: z.number().int(),
            L1: z.number().int(),
            L2: z.number().int(),
            L3: z.number().int(),
          })
          .optional(),
      }),
      query: z.record(z.string(), z.string()),
      next_cursor: z.string().nullable(),
    }),
  })
  .meta({ id: 'AssetList' });

export const assetProfileBody = z
  .strictObject({
    data: assetProfile,
    meta: meta.extend({
      matched_by: z
        .strictObject({
          parameter: z.enum(['tfin', 'isin', 'contract', 'dti']),
          value: z.string().describe('The identifier as matched (normalised).'),
        })
        .describe('Which identifier selected the asset.'),
    }),
  })
  .meta({ id: 'AssetProfileResponse' });

export const problem = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    instance: z.string(),
    code: z.string().regex(/^[a-z_]+$/),
    errors: z.array(z.strictObject({ parameter: z.string(), message: z.string() })).optional(),
    allowed: z.array(z.string()).optional(),
    suggestions: z.array(z.string()).optional(),
    candidates: z
      .array(z.string())
      .optional()
      .describe('With `ambiguous_identifier`: the TFINs of the assets carrying the identifier.'),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details with a stable machine code.' });

export type Meta = z.infer<typeof meta>;
export type AssetSummary = z.infer<typeof assetSummary>;
export type AssetProfile = z.infer<typeof assetProfile>;
export type AssetListBody = z.infer<typeof assetListBody>;
export type Problem = z.infer<typeof problem>;
