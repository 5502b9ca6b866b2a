// Provenance of an import, recorded in the data it writes: where the bytes came from, how old
// they are, their digest and size, and when they were imported.
import { z } from 'zod';
import type { SourceInput } from './input.ts';

export const importProvenance = z.strictObject({
  source_url: z.string().min(1),
  file_name: z.string().nullable(),
  file_date: z.iso.date().nullable(),
  last_modified: z.string().nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  rows: z.number().int().nonnegative(),
  imported: z.iso.date(),
});
export type ImportProvenance = z.infer<typeof importProvenance>;

/**
 * `sourceUrl` is the publisher's canonical URL of the file (a captured copy read from disk keeps
 * the URL it was captured from; its own name is kept in `file_name`).
 */
export function provenanceOf(
  input: SourceInput,
  sourceUrl: string,
  rows: number,
  imported: string,
): ImportProvenance {
  return {
    source_url: sourceUrl,
    file_name: input.kind === 'file' ? (input.name.split('/').pop() ?? input.name) : null,
    file_date: input.file_date,
    last_modified: input.last_modified,
    sha256: input.sha256,
    rows,
    imported,
  };
}
