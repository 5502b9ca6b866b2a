// An import never wipes a data file: a source answering an empty or truncated file (a header-only
// register, an API returning its error page as an empty list) must not replace what the file
// held. A write that would leave a file with no records, or remove more than MAX_SHRINK of them,
// is refused unless the editor passes --allow-shrink after checking that the source really shrank.
import { parse } from 'yaml';
import type { PlannedChange } from './changes.ts';

/** The share of a file's records one import may remove without --allow-shrink. */
export const MAX_SHRINK = 0.5;

/**
 * Records in a data file: the objects it holds in lists, at any depth (a register's entities, a
 * coin's deployments and history points). Scalars in lists (service codes, member states) are
 * attributes, not records.
 */
export function recordCount(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce<number>(
      (n, v) => n + (v && typeof v === 'object' && !Array.isArray(v) ? 1 : 0) + recordCount(v),
      0,
    );
  if (value && typeof value === 'object')
    return Object.values(value).reduce<number>((n, v) => n + recordCount(v), 0);
  return 0;
}

export interface Shrink {
  path: string;
  before: number;
  after: number;
}

/** The planned changes that would remove too much of what their file held. */
export function shrinks(planned: readonly PlannedChange[]): Shrink[] {
  const found: Shrink[] = [];
  for (const c of planned) {
    if (c.before === null || !/\.ya?ml$/.test(c.path)) continue;
    let before: number;
    try {
      before = recordCount(parse(c.before));
    } catch {
      continue; // an unparsable file on disk is data:check's to report; there is nothing to keep
    }
    const after = recordCount(parse(c.after));
    if (before > 0 && (after === 0 || (before - after) / before > MAX_SHRINK))
      found.push({ path: c.path, before, after });
  }
  return found;
}

export function shrinkMessage(found: readonly Shrink[]): string {
  return [
    ...found.map(
      (s) =>
        `${s.path}: the import would leave ${s.after} of its ${s.before} records (${Math.round(((s.before - s.after) / s.before) * 100)} % removed; at most ${MAX_SHRINK * 100} % without --allow-shrink)`,
    ),
    '    expected: a complete source file; check that the input is not empty, truncated or an error page.',
    '    If the source really dropped these records, run again with --allow-shrink.',
  ].join('\n');
}
