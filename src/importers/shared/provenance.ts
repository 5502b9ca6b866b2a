// Provenance of an import, recorded in the data it writes: where the bytes came from, how old
// they are, their digest and size, and when they were imported.
import type { ImportProvenance } from '../../domain/common.ts';
import type { SourceInput } from './input.ts';

// The shape lives with the data schemas (sources carry it); re-exported for importers.
export { importProvenance, type ImportProvenance } from '../../domain/common.ts';

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
