// The shapes the metering journal writes, checked on every replayed line (journal.ts): a segment
// is a file on local disk, so a line may have been torn, edited or corrupted, and a value the
// writer could never have produced must not reach the billing tables.
import { z } from 'zod';
import { OPERATION_PATHS } from '../api/operations.ts';
import { isoDate } from '../domain/common.ts';
import { BILLABLE_CLASSES, statusClass } from '../domain/billing.ts';
import { BUCKETS } from './histogram.ts';

/**
 * The most one line may add to one key. A line holds the counts of one journal interval
 * (200 ms or 1,000 counts, docs/production.md "Metering guarantees"); a million is far beyond what one
 * instance answers in that time and far below what would distort a bill unnoticed.
 */
export const MAX_LINE_COUNT = 1_000_000;

const STATUS_CLASSES = [
  ...new Set([...BILLABLE_CLASSES, ...[200, 300, 400, 500].map(statusClass)]),
];
const endpoint = z.enum(OPERATION_PATHS as [string, ...string[]]);
/** A key's id as the keys table writes it (a UUID), or the public demo key. */
const keyId = z.union([z.literal('DEMO_KEY'), z.uuid()]);
/** Minutes since the epoch, from 2020 to a day past now (clock skew), never fractional. */
const minute = z
  .number()
  .int()
  .min(Date.UTC(2020, 0, 1) / 60_000)
  .refine((m) => m <= Date.now() / 60_000 + 24 * 60, 'is in the future');

export const usageKey = z.strictObject({
  key_id: keyId,
  day: isoDate,
  endpoint,
  status_class: z.enum(STATUS_CLASSES as [string, ...string[]]),
});

export const latencyKey = z.strictObject({
  minute,
  endpoint,
  bucket: z
    .number()
    .int()
    .min(0)
    .max(BUCKETS - 1),
});

export const count = z.number().int().min(1).max(MAX_LINE_COUNT);

/**
 * The most requests per second one instance is taken to have answered when a segment is
 * replayed: over three times the fastest measured (60,000 req/s, docs/benchmarking.md "Benchmarks", fixed
 * bodies and 304s). A replayed segment bills a key at most this rate over the part of each day
 * its own lines span (journal.ts); the rest is quarantined.
 */
export const MAX_REPLAY_RATE_PER_SECOND = 200_000;

/**
 * The time one line may account for beyond its neighbours' stamps: a line holds what was counted
 * since the previous one (every 200 ms or 1,000 counts), 1 s leaves room for a slow disk. A line
 * without a stamp (written before lines were stamped) counts for this much time and no more.
 */
export const LINE_ALLOWANCE_MS = 1_000;

/** One line of a segment: deltas, on the last line the batch id, and when it was written. */
export const segmentLine = z.strictObject({
  d: z.array(z.tuple([z.unknown(), z.unknown()])).max(100_000),
  seal: z.uuid().optional(),
  /** When the line was written (ms since 1970): what the replay's rate bound is measured over. */
  t: z
    .number()
    .int()
    .min(Date.UTC(2020, 0, 1))
    .refine((t) => t <= Date.now() + 24 * 3_600_000, 'is in the future')
    .optional(),
});
