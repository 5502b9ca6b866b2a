// Response shape of /v1/system/status: what the public sees of the service — its health,
// availability as users experienced it, latency, and the freshness of the data. Operator facts
// (keys, traffic, instances, the database) are on /metrics, not here.
import { z } from 'zod';
import { freshness, meta } from './api.ts';

const pct = z.number().min(0).max(100);
const ms = z.number().min(0);

const latencyWindow = z.strictObject({
  count: z.number().int().min(0),
  p50_ms: ms.nullable(),
  p90_ms: ms.nullable(),
  p95_ms: ms.nullable(),
  p99_ms: ms.nullable(),
});

const availabilityWindow = z.strictObject({
  availability_pct: pct
    .nullable()
    .describe(
      "Share of the window (since monitoring began) during which at least one instance was running and answering: the union of every instance's running intervals.",
    ),
  minutes_observed: z.number().int().min(0),
  minutes_up: z.number().int().min(0).describe('Whole minutes up, rounded down.'),
});

export const systemStatusBody = z
  .strictObject({
    data: z.strictObject({
      status: z
        .enum(['ok', 'degraded'])
        .describe(
          'The overall state, from the figures shown. degraded: data is served, but live figures could not be read (availability and latency are then empty), or availability over the 24 h window (since monitoring began, when shorter) is below the 99.99 % target, as after an outage and a restart. ok: live figures are read and that availability is at or above the target (or less than a minute has been observed).',
        ),
      status_reason: z
        .string()
        .describe(
          'Why the state is what it is, in one sentence: the 24 h availability and minutes up against the target, or that live figures could not be read.',
        ),
      uptime: z.strictObject({
        sla_target_pct: z.literal(99.99),
        windows: z.strictObject({
          '24h': availabilityWindow,
          '7d': availabilityWindow,
          '30d': availabilityWindow,
        }),
      }),
      latency: z.array(
        z.strictObject({
          endpoint: z.string(),
          windows: z.strictObject({
            '5m': latencyWindow,
            '1h': latencyWindow,
            '24h': latencyWindow,
          }),
        }),
      ),
      platform: z.strictObject({
        dataset_version: z.string(),
        dataset_as_of: z.iso.date(),
        counts: z.strictObject({
          assets: z.number().int(),
          /** Registry records at L1 or above (the methodology's validation levels). */
          verified: z.number().int(),
          by_validation_level: z.strictObject({
            unverified: z.number().int(),
            L1: z.number().int(),
            L2: z.number().int(),
            L3: z.number().int(),
          }),
          stablecoins: z.number().int(),
          venues: z.number().int(),
          member_states: z.number().int(),
          jurisdictions: z.number().int(),
        }),
        standards: z.strictObject({ registry: z.string(), methodology: z.string() }),
        freshness: freshness.describe(
          "The data's freshness: the share of figures within their maximum age and the oldest figure (also in meta).",
        ),
      }),
      observed_at: z.iso.datetime(),
    }),
    meta,
  })
  .meta({
    id: 'SystemStatusResponse',
    description:
      'Service health, availability as users experienced it, latency percentiles and the freshness of the data.',
  });

export type SystemStatusBody = z.infer<typeof systemStatusBody>;
