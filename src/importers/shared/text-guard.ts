// The importers' side of the shared text rules (src/lib/text-rules.ts, which data:check's
// `text-safe` rule and the refresh apply too): text a source gives that may not be stored is
// refused with an ImportError naming where it came from, never cleaned silently, so the editor
// sees it and decides. Formula-like text is refused here; CSV writing (src/api/bulk.ts) still
// quotes any formula-leading cell.
import { SAFE_TEXT_EXPECTED, unsafeTextReason, unsafeTextsIn } from '../../lib/text-rules.ts';
import { ImportError, type ImportErrorPlace } from './errors.ts';

export { unsafeTextReason } from '../../lib/text-rules.ts';

/**
 * Throws an ImportError naming the place when `text` may not be stored. A source's cell is
 * checked with `checkLength: false`: only the values written must fit the length bound.
 */
export function refuseUnsafeText(
  text: string,
  place: ImportErrorPlace,
  options: { checkLength?: boolean } = {},
): void {
  const reason = unsafeTextReason(text, options);
  if (reason) throw new ImportError(place, reason, SAFE_TEXT_EXPECTED);
}

/**
 * Every string in a value about to be written (keys too), checked: the last line of defence
 * for every importer, naming the data file and the path inside it.
 */
export function refuseUnsafeTextIn(value: unknown, file: string, at = ''): void {
  const first = unsafeTextsIn(value, at)[0];
  if (first)
    throw new ImportError({ input: file, column: first.at }, first.reason, SAFE_TEXT_EXPECTED);
}
