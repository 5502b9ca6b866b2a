// The declarative configuration of `npm run data:refresh` (deploy/data-refresh.yaml): which
// importers run, in order, from which file or URL, and the guard thresholds a refreshed figure
// must stay within. A `${VARIABLE}` in a file or URL is read from the environment; an entry whose
// variable is unset is not configured (listed, not run), so one file serves every deployment.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ImportError } from '../shared/errors.ts';
import { importers } from '../index.ts';
import { PLAUSIBILITY_BOUNDS } from './plausibility.ts';

export const DEFAULT_CONFIG = 'deploy/data-refresh.yaml';

/** The figure kinds a guard knows (asset amounts, coin figures, and read supplies). */
export const GUARDED_KINDS = [
  'circulating_supply',
  'market_cap',
  'total_supply',
  'aum',
  'outstanding',
  'issued',
] as const;
export type GuardedKind = (typeof GUARDED_KINDS)[number];

const source = z
  .strictObject({
    importer: z.string().refine((name) => name in importers, {
      error: `must be one of ${Object.keys(importers).join(', ')}`,
    }),
    file: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    /** An earlier copy of the same file, for importers that compare (esma --previous). */
    previous: z.string().min(1).optional(),
    /** Why this source is read, for the reader of the configuration and of the summary. */
    note: z.string().optional(),
  })
  .refine((s) => !(s.file && s.url), { error: 'give file or url, not both' });

export const refreshConfig = z.strictObject({
  guards: z.strictObject({
    /**
     * The largest change, in percent of the value it replaces, that a refresh publishes for a
     * figure of each kind; a larger jump or drop keeps the previous value and is reported.
     */
    max_change_pct: z.strictObject(
      Object.fromEntries(GUARDED_KINDS.map((k) => [k, z.number().min(0)])) as Record<
        GuardedKind,
        z.ZodNumber
      >,
    ),
    /**
     * The plausibility checks every ledger read passes before use (plausibility.ts). Each bound
     * may be tightened, never loosened past PLAUSIBILITY_BOUNDS, and no check can be switched
     * off: an absent section means the loosest bounds, not no checks.
     */
    plausibility: z
      .strictObject({
        max_decimals: z
          .number()
          .int()
          .min(18)
          .max(PLAUSIBILITY_BOUNDS.max_decimals, {
            error: `may tighten the bound, not loosen it: at most ${PLAUSIBILITY_BOUNDS.max_decimals}`,
          }),
        max_supply_multiple: z
          .number()
          .min(1)
          .max(PLAUSIBILITY_BOUNDS.max_supply_multiple, {
            error: `may tighten the bound, not loosen it: at most ${PLAUSIBILITY_BOUNDS.max_supply_multiple}`,
          }),
        max_block_age_hours: z
          .number()
          .positive()
          .max(PLAUSIBILITY_BOUNDS.max_block_age_hours, {
            error: `may tighten the bound, not loosen it: at most ${PLAUSIBILITY_BOUNDS.max_block_age_hours}`,
          }),
      })
      .default(PLAUSIBILITY_BOUNDS),
  }),
  sources: z.array(source).min(1),
});
export type RefreshConfig = z.infer<typeof refreshConfig>;
export type SourceEntry = RefreshConfig['sources'][number];

export function readRefreshConfig(file: string): RefreshConfig {
  let value: unknown;
  try {
    value = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ImportError(
      { input: file },
      `cannot be read as YAML (${(error as Error).message.split('\n')[0]})`,
      'the refresh configuration (see deploy/data-refresh.yaml)',
    );
  }
  const parsed = refreshConfig.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportError(
      { input: `${file} at ${issue.path.join('.') || 'the top'}` },
      issue.message,
      'the refresh configuration shape (see deploy/data-refresh.yaml)',
    );
  }
  return parsed.data;
}

/** A file or URL with its `${VARIABLE}`s filled in, or the variables that are not set. */
export function expand(
  text: string,
  env: Record<string, string | undefined>,
): { value: string } | { missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    const set = env[name];
    if (!set) missing.push(name);
    return set ?? '';
  });
  return missing.length ? { missing } : { value };
}
