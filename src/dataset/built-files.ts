// Names of the files (the prerendered dataset bodies are the operations table's, src/api/operations.ts) the build writes beside the site (dist/client) and the server reads at
// start; each format's writer and reader live in its own module (profile-pack.ts,
// summary-file.ts, history-file.ts, integrity.ts).
import path from 'node:path';

export const PROFILES_PACK = path.join('internal', 'registry-profiles.pack');
/** Each asset's list summary as JSON, in the pack's order (summary-file.ts). */
export const SUMMARIES_FILE = 'internal/registry-summaries.bin';
