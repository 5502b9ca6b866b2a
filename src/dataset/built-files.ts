// Names of the files the build writes into the site (dist/client) and the server reads at start
// (the prebuilt dataset bodies are the operations table's, src/api/operations.ts); each
// format's writer and reader live in its own module (profile-pack.ts, summary-file.ts,
// history-file.ts, integrity.ts). All of them are written by one emitter, one pass over the
// built dataset (src/authoring/prebuilt-bodies.ts, run by scripts/emit.ts), straight into
// dist/client: nothing else writes a body, and nothing moves or copies one.
import path from 'node:path';
import { HISTORIES_FILE } from './history-file.ts';

export const PROFILES_PACK = path.join('internal', 'registry-profiles.pack');
/** Each asset's list summary as JSON, in the pack's order (summary-file.ts). */
export const SUMMARIES_FILE = 'internal/registry-summaries.bin';
/** Every profile's default body, one "<TFIN>\t<body>" a line: what the pack holds, for tools. */
export const PROFILE_BODIES_FILE = 'internal/registry-profiles.ndjson';

/** The registry's query index: postings for `q=`, the filters and `changed_since=` (registry-query-file.ts). */
export const REGISTRY_QUERY_FILE = 'internal/registry-query.bin';

/** The files under internal/ (`/`-separated), which the server reads and never serves. */
export const INTERNAL_FILES: readonly string[] = [
  PROFILE_BODIES_FILE,
  PROFILES_PACK.split(path.sep).join('/'),
  SUMMARIES_FILE,
  HISTORIES_FILE,
  REGISTRY_QUERY_FILE,
];

/** The client directory of the release being built (dist/client), where the emitter writes. */
export function clientDir(distDir = process.env['TAI_DIST_DIR'] ?? 'dist'): string {
  return path.resolve(distDir, 'client');
}
