// The captured public sources in ../shared/data (beside the clone; see docs/testing.md "The captured
// sources"). Tests that read them use `sharedData(...)`: on a bare clone (an outside user has no
// ../shared) they skip with one line saying what is missing; in CI, which has the folder, a
// missing file is an error, never a skip.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SHARED_DATA = path.resolve(
  process.env['TAI_SHARED_DATA'] ?? path.join('..', 'shared', 'data'),
);

export interface SharedData {
  /** Whether every requested file is present. */
  present: boolean;
  /** One line for the skip message, naming what is missing. */
  reason: string;
  /** Absolute path of a file below ../shared/data, e.g. `file('esma-register/2026-08-17-casps.csv')`. */
  file(relative: string): string;
}

/**
 * Which captured files a test needs. Use with vitest's `describe.skipIf(!data.present)` and put
 * `data.reason` in the describe name so the skip says why.
 */
export function sharedData(...relatives: string[]): SharedData {
  const missing = relatives.filter((r) => !existsSync(path.join(SHARED_DATA, r)));
  if (missing.length && process.env['CI'])
    throw new Error(
      `${missing.map((m) => path.join(SHARED_DATA, m)).join(', ')} missing: CI must have ../shared/data beside the clone (the captured sources); tests never skip there`,
    );
  return {
    present: missing.length === 0,
    reason: missing.length
      ? `skipped: ../shared/data/${missing[0]} is not beside this clone (captured sources; see README)`
      : `../shared/data`,
    file: (relative) => path.join(SHARED_DATA, relative),
  };
}
