// Response shape of /v1/market/stablecoins (the MiCA status response is in api-mica.ts).
import { z } from 'zod';
import { ageDays, lastChangedField, meta, stale } from './api.ts';
import { coinHistoryPoint, institutionalRoute, stablecoinRecord, venue } from './market.ts';

const pct = z.number().min(0).max(100);

const fxUsed = z.strictObject({
  rate: z.number().positive(),
  date: z.iso.date(),
  source: z.string().nullable(),
});

/**
 * A field kept from an earlier v1 shape (within v1 every change is additive): the same value as
 * its successor, marked deprecated in the OpenAPI document; removed only in a new version.
 */
function deprecatedAlias<T extends z.ZodType>(schema: T, successor: string): T {
  return schema.meta({
    deprecated: true,
    description: `Deprecated: the same value as \`${successor}\`, kept for v1 clients.`,
  });
}

const servedFigureFields = {
  age_days: ageDays
    .nullable()
    .describe("The figure's age in days at the dataset date; null when no figure is known."),
  stale: stale,
  stale_reason: z.string().nullable(),
  history: z
    .array(coinHistoryPoint)
    .optional()
    .describe(
      'Previous values, newest first, each with its date and source. Present only with `include=history`.',
    ),
};

export const stablecoinView = stablecoinRecord
  .safeExtend({
    market_cap: stablecoinRecord.shape.market_cap.safeExtend({
      ...servedFigureFields,
      value_usd: z.number().nullable(),
      fx: fxUsed.nullable(),
    }),
    circulating_supply: stablecoinRecord.shape.circulating_supply.safeExtend(servedFigureFields),
    dominance: z
      .strictObject({
        compared: z.boolean(),
        basis_as_of: z.iso
          .date()
          .nullable()
          .describe(
            'The date of the circulating supply compared (inside the window), when compared.',
          ),
        share_of_compared_pct: pct.nullable(),
        share_within_peg_pct: pct.nullable(),
        not_comparable_reason: z
          .string()
          .nullable()
          .describe(
            'Why the coin is not in the comparison: not live, no figure, or a figure outside the window.',
          ),
        share_of_named_set_pct: deprecatedAlias(pct.nullable(), 'share_of_compared_pct'),
        excluded_reason: deprecatedAlias(z.string().nullable(), 'not_comparable_reason'),
      })
      .describe('The coin in the dominance comparison (see `dominance` of the response).'),
    compliance_rating: z.strictObject({
      rating: z.string().regex(/^[A-E]$/),
      meaning: z.string(),
      points: z.number().int().min(0).max(100),
      components: z.record(z.string(), z.number().int()),
    }),
    adoption: z.strictObject({
      score: z.number().int().min(0).max(100),
      venues_total: z.number().int(),
      venues_listed: z.number().int(),
      mica_authorised_venues_total: z.number().int(),
      mica_authorised_venues_listed: z.number().int(),
      institutional_venues_total: z.number().int(),
      institutional_venues_listed: z.number().int(),
      institutional_routes: z.array(institutionalRoute),
      listed_on: z.array(z.string()),
    }),
    last_changed: lastChangedField,
  })
  .meta({
    id: 'Stablecoin',
    description:
      'A named stablecoin with its dated facts and derived dominance, MiCA compliance rating and adoption.',
  });

const shareRow = z.strictObject({
  id: z.string(),
  symbol: z.string(),
  peg_currency: z.string(),
  circulating_supply: z.number().describe('Tokens in circulation, in units of the peg currency.'),
  as_of: z.iso.date(),
  source: z.string(),
  value_usd: z.number().describe('The circulating supply at par, converted to USD.'),
  share_pct: pct,
  market_cap_usd: deprecatedAlias(z.number(), 'value_usd'),
});
const pegShareRow = z.strictObject({
  id: z.string(),
  symbol: z.string(),
  circulating_supply: z.number(),
  as_of: z.iso.date(),
  share_pct: pct,
  market_cap: deprecatedAlias(z.number(), 'circulating_supply'),
});

export const dominanceSection = z
  .strictObject({
    basis: z.string().describe('What is compared, how it is valued and how shares are rounded.'),
    basis_kind: z
      .literal('circulating_supply')
      .describe('The kind of figure compared: one kind only, never a mix.'),
    reference_date: z.iso
      .date()
      .nullable()
      .describe('The last day of the window; null when no live coin has a figure on the basis.'),
    window: z.strictObject({ start: z.iso.date(), end: z.iso.date(), rule: z.string() }).nullable(),
    total_usd: z.number().describe('The summed value of the compared coins, in USD.'),
    total_market_cap_usd: deprecatedAlias(z.number(), 'total_usd'),
    covered_share_pct: pct
      .nullable()
      .describe(
        "The compared coins' share of the live coins' newest circulating-supply figures, summed in USD (coins with no figure cannot be counted: see coins_without_figure).",
      ),
    coins_live: z.number().int(),
    coins_compared: z.number().int(),
    coins_without_figure: z.number().int(),
    overall: z.array(shareRow),
    peg_groups: z.array(
      z.strictObject({
        currency: z.string(),
        coins_compared: z.number().int(),
        total: z
          .number()
          .describe('Summed circulating supply of the compared coins, in that currency.'),
        total_usd: z.number(),
        share_pct: pct,
      }),
    ),
    by_peg: z
      .record(z.string().regex(/^[A-Z]{3}$/), z.array(pegShareRow))
      .describe('Shares within each peg currency (USD and EUR always present), in that currency.'),
    not_comparable: z.array(
      z.strictObject({
        id: z.string(),
        symbol: z.string(),
        reason: z.string(),
        circulating_supply: z.number().nullable(),
        as_of: z.iso.date().nullable(),
      }),
    ),
    excluded: deprecatedAlias(
      z.array(z.strictObject({ id: z.string(), reason: z.string() })),
      '`not_comparable` and `not_live` together',
    ),
    not_live: z.array(
      z.strictObject({
        id: z.string(),
        symbol: z.string(),
        status: z.enum(['depegged', 'wound_down', 'inactive']),
        since: z.iso.date().nullable(),
        reason: z.string(),
      }),
    ),
  })
  .describe(
    'Dominance on one basis: circulating supply at par, in USD, among the live coins with a figure inside one calendar month.',
  );

export const stablecoinsBody = z
  .strictObject({
    data: z.strictObject({
      stablecoins: z.array(stablecoinView),
      dominance: dominanceSection,
      venues: z.array(venue).length(24),
    }),
    meta: meta.extend({
      count: z.number().int(),
      total: z.number().int(),
      scores_version: z.string(),
      query: z.record(z.string(), z.string()),
    }),
  })
  .meta({ id: 'StablecoinsResponse' });

// The MiCA response lives in api-mica.ts; re-exported for the modules that import it from here.
export { memberStateView, micaStatusBody } from './api-mica.ts';
export type { MemberStateView, MicaStatusBody } from './api-mica.ts';

export type StablecoinView = z.infer<typeof stablecoinView>;
export type StablecoinsBody = z.infer<typeof stablecoinsBody>;
