// The refresh's use of the text rules every writer shares (src/lib/text-rules.ts): a file whose
// planned text holds a control character, a bidi override, a spreadsheet formula or runaway text
// (a token's name() with ESC and U+202E, or 41 NULs from an uninitialised slot) is not written;
// its change is kept out whole and reported, like an implausible read (exit 4, nothing released).
import { parse } from 'yaml';
import { unsafeTextsIn } from '../../lib/text-rules.ts';
import type { PlannedChange } from '../shared/changes.ts';
import type { Refusal } from './plausibility.ts';

export function keepOutUnsafeText(planned: readonly PlannedChange[]): {
  publish: PlannedChange[];
  refused: Refusal[];
} {
  const publish: PlannedChange[] = [];
  const refused: Refusal[] = [];
  for (const change of planned) {
    let found: { at: string; reason: string }[] = [];
    if (/\.ya?ml$/.test(change.path)) {
      try {
        found = unsafeTextsIn(parse(change.after));
      } catch {
        found = []; // data:check explains a file that does not parse
      }
    }
    if (!found.length) publish.push(change);
    else
      refused.push(
        ...found.map((f) => ({
          path: change.path,
          at: f.at,
          read: 'text',
          reasons: [`${f.reason}: the file's change is left out`],
        })),
      );
  }
  return { publish, refused };
}
