// Cache-Control of the API's answers.

/** Keyed data: browsers may cache it; shared caches must not (they would skip our key check). */
export const DATA_CACHE = 'private, max-age=60, stale-while-revalidate=300';
/** An answer for a named dataset_version never changes. */
export const IMMUTABLE_CACHE = 'private, max-age=31536000, immutable';
/** The dataset operations' answers depend on Accept (CSV, NDJSON) as well as Accept-Encoding. */
export const VARY_ACCEPT = 'Accept, Accept-Encoding';
