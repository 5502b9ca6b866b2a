// Response shape of /v1/system/status: live figures from the service's own database.
import { z } from 'zod';
import { meta } from './api.ts';

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
      'Share of minutes in the window with a heartbeat from at least one instance, since monitoring began.',
    ),
  minutes_observed: z.number().int().min(0),
  minutes_up: z.number().int().min(0),
});

export const systemStatusBody = z
  .strictObject({
    data: z.strictObject({
      status: z.enum(['ok', 'degraded']),
      database: z.strictObject({
        status: z.enum(['ok', 'unreachable']),
        driver: z.enum(['sqlite', 'postgres']),
      }),
      uptime: z.strictObject({
        process_seconds: z.number().int().min(0),
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
        requests_24h: z.number().int().min(0).nullable(),
        active_keys: z.number().int().min(0).nullable(),
        instances_alive: z.number().int().min(0).nullable(),
        dataset_version: z.string(),
        dataset_as_of: z.iso.date(),
        counts: z.strictObject({
          assets: z.number().int(),
          stablecoins: z.number().int(),
          venues: z.number().int(),
          member_states: z.number().int(),
          jurisdictions: z.number().int(),
        }),
        standards: z.strictObject({ registry: z.string(), methodology: z.string() }),
      }),
      observed_at: z.iso.datetime(),
    }),
    meta,
  })
  .meta({
    id: 'SystemStatusResponse',
    description: 'Live uptime, latency percentiles and platform statistics.',
  });

export type SystemStatusBody = z.infer<typeof systemStatusBody>;
