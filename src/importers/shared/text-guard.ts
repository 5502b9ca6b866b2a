// Text that reaches data/ from a source is shown on pages, sent in answers and written into CSV:
// a control character or a bidi override in it can hide or reorder what a reader sees (Trojan
// Source, CVE-2021-42574) or break a consumer's parser. Such text is refused, never cleaned
// silently: the editor sees where it came from and decides. Tab, LF and CR stay allowed (CSV
// fields may span lines); formula-leading text is allowed here and neutralised where CSV is
// written (src/api/bulk.ts).
import { ImportError, type ImportErrorPlace } from './errors.ts';

/** C0 controls but TAB, LF and CR; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;

const codePoint = (ch: string) =>
  `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` may not be stored, or null when it may. */
export function unsafeTextReason(text: string): string | null {
  const control = CONTROL.exec(text);
  if (control)
    return `holds the control character ${codePoint(control[0])} at character ${control.index + 1}`;
  const bidi = BIDI.exec(text);
  if (bidi) return `holds the bidi control ${codePoint(bidi[0])} at character ${bidi.index + 1}`;
  return null;
}

const EXPECTED =
  'plain text without control characters (other than tab and line breaks) or bidi overrides; if the source really publishes it, report it to the source and leave the record out until it is fixed';

/** Throws an ImportError naming the place when `text` may not be stored. */
export function refuseUnsafeText(text: string, place: ImportErrorPlace): void {
  const reason = unsafeTextReason(text);
  if (reason) throw new ImportError(place, reason, EXPECTED);
}

/**
 * Every string in a value about to be written (keys too), checked: the last line of defence
 * for every importer, naming the data file and the path inside it.
 */
export function refuseUnsafeTextIn(value: unknown, file: string, at = ''): void {
  if (typeof value === 'string') {
    refuseUnsafeText(value, { input: file, column: at || '(document)' });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => refuseUnsafeTextIn(v, file, `${at}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      refuseUnsafeText(k, { input: file, column: at || '(document)' });
      refuseUnsafeTextIn(v, file, at ? `${at}.${k}` : k);
    }
  }
}
