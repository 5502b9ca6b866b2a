// Identifier checks: ISIN (ISO 6166), LEI (ISO 17442) and TFIN (registry standard 1.2).
// Pure functions; the zod schemas and the data checks call them.

const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;
const LEI_SHAPE = /^[A-Z0-9]{18}[0-9]{2}$/;
export const TFIN_PATTERN = /^TFIN-([A-Z]{4})-([A-Z]{3})-(\d{4})-(\d{4})$/;

/** Letters count as 10..35, as both ISO 6166 and ISO 17442 prescribe. */
function lettersToDigits(value: string): string {
  let out = '';
  for (const ch of value) out += /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
  return out;
}

/** ISO 6166: Luhn ("double-add-double") over the digit expansion of the first 11 characters. */
export function isinCheckDigit(first11: string): number {
  const digits = lettersToDigits(first11);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Double every other digit starting from the rightmost one.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidIsin(value: string): boolean {
  return ISIN_SHAPE.test(value) && isinCheckDigit(value.slice(0, 11)) === Number(value[11]);
}

/** ISO 17442 check digits: ISO 7064 MOD 97-10 over the whole code must leave 1. */
function mod97(digits: string): number {
  let remainder = 0;
  for (const ch of digits) remainder = (remainder * 10 + Number(ch)) % 97;
  return remainder;
}

export function isValidLei(value: string): boolean {
  return LEI_SHAPE.test(value) && mod97(lettersToDigits(value)) === 1;
}

export function leiCheckDigits(first18: string): string {
  return String(98 - mod97(lettersToDigits(`${first18}00`))).padStart(2, '0');
}

export interface TfinParts {
  assetClass: string;
  ledger: string;
  year: number;
  sequence: number;
}

export function parseTfin(value: string): TfinParts | null {
  const m = TFIN_PATTERN.exec(value);
  if (!m) return null;
  return {
    assetClass: m[1]!,
    ledger: m[2]!,
    year: Number(m[3]),
    sequence: Number(m[4]),
  };
}

/** Case-normalise user input for lookups: trims and upper-cases; shape is checked separately. */
export function normaliseTfin(value: string): string {
  return value.trim().toUpperCase();
}
