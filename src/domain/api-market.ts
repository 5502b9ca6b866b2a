// Response shape of /v1/market/stablecoins (the MiCA status response is in api-mica.ts).
import { z } from 'zod';
import { ageDays, lastChangedField, meta } from './api.ts';
import { historyPoint } from './common.ts';
import { institutionalRoute, stablecoinRecord, venue } from './market.ts';

const pct = z.number().min(0).max(100);

const fxUsed = z.strictObject({
  rate: z.number().positive(),
  date: z.iso.date(),
  source: z.string().nullable(),
});

const servedFigureFields = {
  age_days: ageDays,
  stale_reason: z.string().nullable(),
  history: z
    .array(historyPoint)
    .optional()
    .describe(
      'Previous values, newest first, each with its date and source. Present only with `include=history`.',
    ),
};

export const stablecoinView = stablecoinRecord
  .extend({
    market_cap: stablecoinRecord.shape.market_cap.safeExtend({
      ...servedFigureFields,
      value_usd: z.number().nullable(),
      fx: fxUsed.nullable(),
    }),
    circulating_supply: stablecoinRecord.shape.circulating_supply.safeExtend(servedFigureFields),
    dominance: z.strictObject({
      share_of_named_set_pct: pct.nullable(),
      share_within_peg_pct: pct.nullable(),
      excluded_reason: z.string().nullable(),
    }),
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
  market_cap_usd: z.number(),
  share_pct: pct,
});
const pegShareRow = z.strictObject({
  id: z.string(),
  symbol: z.string(),
  market_cap: z.number(),
  share_pct: pct,
});

export const stablecoinsBody = z
  .strictObject({
    data: z.strictObject({
      stablecoins: z.array(stablecoinView),
      dominance: z.strictObject({
        basis: z.string(),
        total_market_cap_usd: z.number(),
        overall: z.array(shareRow),
        by_peg: z
          .record(z.string().regex(/^[A-Z]{3}$/), z.array(pegShareRow))
          .describe(
            'Shares within each peg currency (USD and EUR always present), in that currency.',
          ),
        excluded: z.array(z.strictObject({ id: z.string(), reason: z.string() })),
      }),
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
