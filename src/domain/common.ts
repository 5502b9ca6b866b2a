// Shared building blocks of the data-file schemas.
import { z } from 'zod';

/** The last day any date in the data may carry: data cannot describe the future. */
export const isoDate = z.iso.date({ error: 'must be a date written as "YYYY-MM-DD" (quoted)' });

export const nonEmptyText = z.string().trim().min(1, { error: 'must not be empty' });

/** The explanation a `<field>_null_reason` sibling gives for a null value. */
export const nullReason = nonEmptyText.nullish();

/** A value may be null only when its `<reason>` sibling says why (data honesty: no silent gaps). */
export function requireReason<T extends Record<string, unknown>>(
  value: T,
  ctx: z.core.$RefinementCtx<T>,
  field: keyof T & string,
  reasonField: keyof T & string,
): void {
  if (value[field] === null && !value[reasonField]) {
    ctx.addIssue({
      code: 'custom',
      path: [reasonField],
      message: `is required when ${field} is null`,
    });
  }
}

/** The refinement form of requireReason: `.superRefine(reasonFor('lei', 'lei_null_reason'))`. */
export function reasonFor<T extends Record<string, unknown>>(
  field: keyof T & string,
  reasonField: keyof T & string,
) {
  return (value: T, ctx: z.core.$RefinementCtx<T>) => requireReason(value, ctx, field, reasonField);
}

export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, { error: 'must be an upper-case ISO 3166-1 alpha-2 code such as "DE"' });

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'must be an upper-case ISO 4217 currency code such as "USD"' });

export const kebabId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
  error: 'must be lower-case kebab-case such as "issuer-pr-2024"',
});

export const sourceKind = z.enum([
  'issuer',
  'prospectus',
  'regulatory_filing',
  'regulator_register',
  'regulator_publication',
  'regulation',
  'csd_or_registrar',
  'transfer_agent',
  'attestation',
  'venue_notice',
  'explorer',
  'data_aggregator',
  'news',
]);

/** Every kind but `news` is primary: the issuer, a regulator, a CSD or transfer agent, the ledger, an aggregator's own data. */
export const PRIMARY_SOURCE_KINDS: readonly z.infer<typeof sourceKind>[] =
  sourceKind.options.filter((k) => k !== 'news');

/** What an importer records about the file it read (written by `npm run data:import`). */
export const importProvenance = z.strictObject({
  source_url: z.string().min(1),
  file_name: z.string().nullable(),
  file_date: isoDate.nullable(),
  last_modified: z.string().nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a hex SHA-256 digest' }),
  rows: z.number().int().nonnegative(),
  imported: isoDate,
});
export type ImportProvenance = z.infer<typeof importProvenance>;

/**
 * The fields that place a read in a public repository, each optional: the repository, the file's
 * path and line, and the commit it was read at (a fact's origin, an issuer's record).
 */
export const repositoryPlace = {
  repository: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: 'must be "owner/name"' })
    .optional(),
  path: nonEmptyText.optional(),
  line: z.number().int().positive().optional(),
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/, { error: 'must be the 40-hex commit id' })
    .optional(),
};

/**
 * Where one imported fact was read: the source (an id of the record's `sources`) and, for a file
 * in a public repository, the repository, path, line and commit. Written by the importers beside
 * the value they set; an editor who corrects the value replaces `origin` with the source they used.
 */
export const factOrigin = z.strictObject({ source: kebabId, ...repositoryPlace });
export type FactOrigin = z.infer<typeof factOrigin>;

export const source = z.strictObject({
  id: kebabId,
  kind: sourceKind,
  title: nonEmptyText,
  publisher: nonEmptyText,
  url: z.url({ protocol: /^https?$/, error: 'must be a full http:// or https:// URL' }),
  accessed: isoDate,
  published: isoDate.nullable(),
  /** Why a news item stands for a figure: it is the only public record of it. */
  secondary_reason: nonEmptyText.optional(),
  provenance: importProvenance.optional(),
});

export type Source = z.infer<typeof source>;

export const sources = z.array(source).min(1, { error: 'list at least one source' });

/** A previous value of a figure, kept when the figure is refreshed. */
export const historyPoint = z.strictObject({
  value: z.number().positive({ error: 'must be a positive number in units of the currency' }),
  as_of: isoDate,
  source: kebabId,
});
export type HistoryPoint = z.infer<typeof historyPoint>;

/** The fields every dated figure shares: why it may be older than its maximum age, and its predecessors. */
export const figureHistoryFields = {
  stale_reason: nonEmptyText.nullish(),
  history: z.array(historyPoint).optional(),
};
