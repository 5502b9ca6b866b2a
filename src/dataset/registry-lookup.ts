// The single-asset lookup parameters and the nearest known IDs for a miss.
import { TFIN_PATTERN, normaliseTfin } from '../domain/identifiers.ts';
import { readParams, type ParamProblem, type ParamSpec } from './params.ts';
import { editDistance } from './zod-problems.ts';

export const LOOKUP_PARAMS: ParamSpec[] = [
  {
    name: 'tfin',
    description: 'TFIN ID of the asset (case-insensitive).',
    pattern: TFIN_PATTERN,
    format: 'a TFIN: TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>',
    example: 'TFIN-FUND-ETH-2024-0001',
    normalise: normaliseTfin,
    maxLength: 64,
  },
];

/** Up to three known TFINs nearest to a well-formed unknown one, nearest first. */
export function closestTfins(known: Iterable<string>, tfin: string, count = 3): string[] {
  const best: { id: string; d: number }[] = [];
  for (const id of known) {
    const d = editDistance(id, tfin);
    if (
      best.length < count ||
      d < best[best.length - 1]!.d ||
      (d === best[best.length - 1]!.d && id < best[best.length - 1]!.id)
    ) {
      best.push({ id, d });
      best.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      if (best.length > count) best.pop();
    }
  }
  return best.map((x) => x.id);
}

/**
 * TFINs are ASCII. Checked on the raw value, before trim() and toUpperCase(): those map a dotless
 * ı, the ﬁ ligature or NBSP/U+3000/BOM padding onto a real TFIN, which would answer 200 for a
 * string that is not the identifier. The problem names the first offending code point.
 */
function nonAsciiProblem(values: string[]): ParamProblem | null {
  if (values.length !== 1) return null; // absent or repeated: readParams says so
  const raw = values[0]!;
  // eslint-disable-next-line no-control-regex
  const at = raw.search(/[^\u0000-\u007f]/);
  if (at < 0) return null;
  const cp = raw.codePointAt(at)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(String.fromCodePoint(cp))
    ? ` "${String.fromCodePoint(cp)}"`
    : '';
  const message = `contains the non-ASCII character ${hex}${shown} at position ${at + 1}; a TFIN is ASCII only (TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>)`;
  return {
    code: 'invalid_parameter',
    detail: `"tfin" ${message}.`,
    extensions: { errors: [{ parameter: 'tfin', message, code_point: hex }] },
  };
}

export type LookupOutcome = { ok: true; tfin: string } | { ok: false; problem: ParamProblem };

/**
 * The answer to `?tfin=`: a known TFIN, or the problem to send. The fast path and Astro's
 * endpoint both call this, so they cannot drift apart.
 */
export function resolveLookup(
  query: URLSearchParams,
  has: (tfin: string) => boolean,
  suggest: (tfin: string) => string[],
): LookupOutcome {
  const ascii = nonAsciiProblem(query.getAll('tfin'));
  if (ascii) return { ok: false, problem: ascii };
  const params = readParams(query, LOOKUP_PARAMS);
  if (!params.ok) return params;
  const tfin = params.values['tfin'];
  if (!tfin) {
    return {
      ok: false,
      problem: {
        code: 'missing_parameter',
        detail: 'The query parameter "tfin" is required, e.g. ?tfin=TFIN-FUND-ETH-2024-0001.',
        extensions: { errors: [{ parameter: 'tfin', message: 'is required' }] },
      },
    };
  }
  if (has(tfin)) return { ok: true, tfin };
  const suggestions = suggest(tfin);
  return {
    ok: false,
    problem: {
      code: 'asset_not_found',
      detail: `No verified asset has the TFIN ${tfin}. Closest known: ${suggestions.join(', ')}.`,
      extensions: { suggestions },
    },
  };
}
