// The text rules every writer of data/ shares (every importer, the refresh, and data:check's
// `text-safe` rule): text that reaches data/ is shown on pages, sent in answers and written into
// CSV. A control character or a bidi override can hide or reorder what a reader sees (Trojan
// Source, CVE-2021-42574) or break a consumer's parser; a formula can run in a spreadsheet (OWASP
// "CSV Injection"); text longer than any record needs is a source's fault or an attack. Such text
// is refused, never cleaned silently. Tab, LF and CR stay allowed (CSV fields may span lines).

/** C0 controls but TAB, LF and CR; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;
/**
 * A spreadsheet formula: text starting with `=`, a function call after `+`, `-` or `@`
 * (`@SUM(`, `-HYPERLINK(`), or a DDE reference (`+cmd|' /C calc'!A0`). A leading sign alone is
 * text (`-0.5 %`, `@exodus/assets-base 8.0.101 (…)`, a package name): CSV writing still quotes it.
 */
const FORMULA = /^\s*=|^\s*[+\-@]\s*[A-Za-z_][\w.]*\s*\(|^\s*[=+\-@][^|]*\|[^!]*!/u;

/**
 * The longest text value data/ holds: four times the longest one written by hand (a validation
 * basis of 1,258 characters, 2026-12), so a description never meets it and a runaway value does.
 */
export const MAX_TEXT_LENGTH = 5_000;

const codePoint = (ch: string) =>
  `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `text` may not be stored, or null when it may. `checkLength: false` for a source's cell
 * that is read but not necessarily stored: its length is checked on the values written.
 */
export function unsafeTextReason(
  text: string,
  { checkLength = true }: { checkLength?: boolean } = {},
): string | null {
  const control = CONTROL.exec(text);
  if (control)
    return `holds the control character ${codePoint(control[0])} at character ${control.index + 1}`;
  const bidi = BIDI.exec(text);
  if (bidi) return `holds the bidi control ${codePoint(bidi[0])} at character ${bidi.index + 1}`;
  if (checkLength && text.length > MAX_TEXT_LENGTH)
    return `is ${text.length.toLocaleString('en-US')} characters long, more than the ${MAX_TEXT_LENGTH.toLocaleString('en-US')} any text of the data may be`;
  if (FORMULA.test(text))
    return `starts like a spreadsheet formula (${JSON.stringify(text.trim().slice(0, 12))}…)`;
  return null;
}

/** What an editor is asked for when a text is refused. */
export const SAFE_TEXT_EXPECTED =
  'plain text without control characters (other than tab and line breaks), bidi overrides or a leading spreadsheet formula, at most 5,000 characters; if the source really publishes it, report it to the source and leave the record out until it is fixed';

/** Every string in a value (keys too) that may not be stored, with its path (`a.b[2].c`). */
export function unsafeTextsIn(value: unknown, at = ''): { at: string; reason: string }[] {
  const out: { at: string; reason: string }[] = [];
  const walk = (v: unknown, where: string) => {
    if (typeof v === 'string') {
      const reason = unsafeTextReason(v);
      if (reason) out.push({ at: where || '(document)', reason });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${where}[${i}]`));
    else if (v && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) {
        const reason = unsafeTextReason(k);
        if (reason) out.push({ at: where || '(document)', reason: `a key ${reason}` });
        walk(item, where ? `${where}.${k}` : k);
      }
  };
  walk(value, at);
  return out;
}
