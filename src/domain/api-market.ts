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
        market_share_pct: pct
          .nullable()
          .describe(
            "The coin's share of the whole stablecoin market: its compared value in USD over the market total of the window (`dominance.market_total`); null when the coin is not compared, no total is known for the window, or the total counts USD-pegged coins only and the coin is not.",
          ),
        share_of_compared_pct: pct
          .nullable()
          .describe(
            "The coin's share of the compared coins only (they sum to 100), not of the whole market: see `market_share_pct`.",
          ),
        share_within_peg_pct: pct
          .nullable()
          .describe("The coin's share among the compared coins of the same peg currency."),
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
  source: z
    .string()
    .describe(
      "The id of the figure's source in the coin's sources, or `ledger-read` for a sum read from the coin's ledgers (its `ledger_circulating_supply`).",
    ),
  value_usd: z.number().describe('The circulating supply at par, converted to USD.'),
  market_share_pct: pct
    .nullable()
    .describe(
      "Share of the whole stablecoin market: `value_usd` over `market_total.value_usd`, rounded to 0.01; null without a market total for the window, or for a coin outside the total's scope.",
    ),
  share_of_compared_pct: pct.describe(
    'Share of the compared coins only (largest-remainder rounding, the rows sum to 100): not a share of the whole market.',
  ),
  share_pct: deprecatedAlias(pct, 'share_of_compared_pct'),
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
    window: z
      .strictObject({
        start: z.iso.date(),
        end: z.iso.date(),
        days: z.number().int().describe('The length of the window in days, both ends counted.'),
        rule: z.string().describe('How the window is chosen (coverage and recency together).'),
      })
      .nullable(),
    summary: z
      .string()
      .describe(
        'The comparison in plain words: the window, how many coins are compared, the market total with its date and source, and what share of it the compared coins hold.',
      ),
    outdated_note: z
      .string()
      .nullable()
      .describe(
        'Set when the window ended more than eight months before the dataset date: the comparison is old, and says so.',
      ),
    market_total: z
      .strictObject({
        id: z.string().describe('The id of the total in data/stablecoin-market-totals.yaml.'),
        value_usd: z.number().describe('The total of the whole stablecoin market, in USD.'),
        as_of: z.iso.date(),
        kind: z
          .enum(['issuer_sum', 'aggregator_total', 'ledger_sum'])
          .describe(
            "How it was counted: issuers' reports added up, an aggregator's total, or a sum read from the ledgers.",
          ),
        scope: z
          .enum(['all_stablecoins', 'usd_pegged'])
          .describe('Every stablecoin, or the USD-pegged ones only.'),
        measure: z.string().describe('What the total counts, in words.'),
        counted_by: z.string().describe('Who counted the total.'),
        precision: z.number().nullable().describe('The unit the total is rounded to as published.'),
        source: z
          .strictObject({
            id: z.string().describe("The source's id in the totals file."),
            kind: z.string().describe('The kind of source (data_aggregator, issuer, news, …).'),
            title: z.string().describe('What the source says, as cited.'),
            publisher: z.string().describe('Who published it.'),
            url: z.string().describe('Where it is published.'),
            published: z.iso.date().nullable().describe('When it was published, if it says.'),
            secondary_reason: z
              .string()
              .nullable()
              .describe('Why a news item stands for the total: it is its only public record.'),
          })
          .describe('Where the total is published.'),
        stated_split: z
          .array(
            z.strictObject({
              id: z.string().describe('The coin (its id in this response).'),
              value_usd: z
                .number()
                .nullable()
                .describe("The coin's value the source states, in USD."),
              share_pct: pct.nullable().describe("The coin's share the source states, in %."),
            }),
          )
          .describe(
            "The values or shares the total's own source states for single coins, to hold the served market shares against.",
          ),
      })
      .nullable()
      .describe(
        'The dated total of the whole stablecoin market the market shares divide by: the newest total dated inside the window. Null when none is known for the window (see market_total_null_reason).',
      ),
    market_total_null_reason: z
      .string()
      .nullable()
      .describe('Why no market total (and so no market share) is served for this window.'),
    coverage_of_market_pct: z
      .number()
      .min(0)
      .nullable()
      .describe(
        "The compared coins' summed value (those inside the total's scope) as a share of the market total, in %. Above 100 only when the compared figures, dated across the window, add up to more than the total of its day.",
      ),
    compared_total_usd: z
      .number()
      .describe('The summed value of the compared coins only, in USD: not the whole market.'),
    total_usd: z.number().meta({
      deprecated: true,
      description:
        'Deprecated: the summed value of the compared coins only, the same value as `compared_total_usd`; the whole market is `market_total.value_usd`.',
    }),
    total_market_cap_usd: z.number().meta({
      deprecated: true,
      description:
        'Deprecated: despite its name, the summed value of the compared coins only (the same value as `compared_total_usd`), not the market capitalisation of the whole stablecoin market, which is `market_total.value_usd`. Kept for v1 clients.',
    }),
    covered_share_pct: pct
      .nullable()
      .describe(
        "The compared coins' share of the live coins' newest circulating-supply figures, summed in USD: counts only coins that have a figure (see coins_without_figure), so it is not a share of the whole market (see coverage_of_market_pct).",
      ),
    coins_live: z.number().int().describe('Live coins named in the data.'),
    coins_compared: z.number().int().describe('Live coins with a figure inside the window.'),
    coins_without_figure: z
      .number()
      .int()
      .describe('Live coins with no circulating supply at all.'),
    overall: z.array(shareRow),
    peg_groups: z.array(
      z.strictObject({
        currency: z.string(),
        coins_compared: z.number().int(),
        total: z
          .number()
          .describe('Summed circulating supply of the compared coins, in that currency.'),
        total_usd: z.number(),
        share_pct: pct
          .nullable()
          .describe(
            "The peg's share of the compared total; null when none of its coins is compared (see not_compared_reason), never 0 %.",
          ),
        not_compared_reason: z
          .string()
          .nullable()
          .describe('Set when no coin of this peg currency is compared, saying why.'),
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
    "Dominance on one basis: circulating supply at par, in USD, among the live coins with a figure inside one window of at most 92 days; each compared coin's share of the whole market (market_share_pct, against a dated market total) beside its share of the compared coins (share_of_compared_pct).",
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
