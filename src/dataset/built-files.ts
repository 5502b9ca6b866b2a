// Names of the files the build writes beside the site (dist/client) and the server reads at start
// (the prerendered dataset bodies are the operations table's, src/api/operations.ts); each
// format's writer and reader live in its own module (profile-pack.ts, summary-file.ts,
// history-file.ts, integrity.ts). All of them are written by one pass over the built dataset
// (src/authoring/prebuilt-bodies.ts) into the bodies directory beside the dataset file, before
// `astro build`: Astro's prerendered endpoints send those bytes, and postbuild moves the
// internal files into dist/client.
import { existsSync, readFileSync } from 'node:fs';
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

/** The bodies directory beside a dataset file: build/dataset.json → build/bodies/. */
export function bodiesDir(datasetFile: string): string {
  return path.join(path.dirname(path.resolve(datasetFile)), 'bodies');
}

/** Names the dataset the bodies were made from (`dataset_version`), checked by postbuild. */
export const BODIES_STAMP = 'dataset-version';

/**
 * A body the pass wrote, as bytes (`rel` as under dist/client, e.g. `v1/market/stablecoins`):
 * what the prerendered endpoints send, never parsed.
 */
export function prebuiltBody(datasetFile: string, rel: string): Uint8Array<ArrayBuffer> {
  const file = path.join(bodiesDir(datasetFile), ...rel.split('/'));
  if (!existsSync(file))
    throw new Error(
      `${file} is missing: the bodies pass runs after data:build (\`npm run build\` runs both)`,
    );
  const bytes = readFileSync(file);
  // A Response body takes an ArrayBuffer's view; readFileSync's buffer is never a shared one.
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
