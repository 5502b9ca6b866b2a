// The per-target memo: request targets whose answer cannot change while the process runs (the
// unfiltered datasets, lookup hits, the problem a lookup always gets). Parsing, routing,
// validation and lookup run once per distinct target; key, quota and metering run every time.
// Only targets that were routed and passed the key-in-query check are kept; bounded, oldest out.
import { BoundedMap } from '../../lib/bounded-map.ts';
import type { BulkFormat } from '../../api/bulk.ts';
import type { Precomputed } from '../../representation/precomputed.ts';
import type { PreparedProblem } from '../../representation/respond.ts';

/** Request targets remembered with their answer. */
export const HOT_TARGET_ENTRIES = 4096;

/** What routing, validation and lookup decided about a target, kept. */
export type HotTarget = { path: string } & (
  | {
      body: Precomputed;
      problem?: undefined;
      /** A dataset view without a query: its CSV and NDJSON bodies, chosen by Accept. */
      alternates?: Record<BulkFormat, Precomputed>;
      vary?: string;
      /** Default DATA_CACHE; a named dataset_version is immutable. */
      cacheControl?: string;
      /** The media types the answer was chosen among (Answer.accepts): another Accept gets 406. */
      accepts?: readonly string[];
    }
  | { body?: undefined; problem: PreparedProblem }
);

export type Memo = BoundedMap<string, HotTarget>;

export const createMemo = (entries = HOT_TARGET_ENTRIES): Memo =>
  new BoundedMap<string, HotTarget>(entries);
