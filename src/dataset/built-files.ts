// Names of the files the build writes beside the site (dist/client) and the server reads at
// start; each format's writer and reader live in its own module (profile-pack.ts,
// summary-file.ts, history-file.ts, integrity.ts).
import path from 'node:path';

export const PRERENDERED_VIEWS = [
  '/v1/registry/assets',
  '/v1/market/stablecoins',
  '/v1/compliance/mica-status',
] as const;
export const PROFILES_PACK = path.join('internal', 'registry-profiles.pack');
/** Each asset's list summary as JSON, in the pack's order (summary-file.ts). */
export const SUMMARIES_FILE = 'internal/registry-summaries.bin';
