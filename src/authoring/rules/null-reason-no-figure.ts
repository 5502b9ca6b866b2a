// The rules `null-reason-no-figure` and `stale-reason-no-figure` (npm run data:check): a figure
// is either recorded or absent. A null value's reason (`…null_reason`) says why no figure is
// recorded; it never states the figure (an amount, a market value, a supply), which would serve an
// unrecorded value without its date, source or checks. A figure's `stale_reason` says why no newer
// figure exists: it may name the figure it explains (as rounded), and no other, which would be
// served the same way. Asset, series and coin files are searched.
import { textsOf } from '../../dataset/guessed-values.ts';
import type { DataProblem } from '../problems.ts';
import { problemAt } from '../yaml-file.ts';
import type { DataCheck } from './rule.ts';

// An ISO code with a space before the number ("USD 250"; "USD1" is a ticker), or a symbol.
const CODE = String.raw`\b(?:USD|EUR|CHF|GBP|SEK|PLN|RON|JPY|SGD|HKD|RMB|CNY)`;
const CURRENCY = String.raw`(?:${CODE}\s|(?:US|HK|S)?\$\s?|€\s?|£\s?)`;
const SCALE = String.raw`(?:million|billion|thousand|bn|mn)\b`;

/** An amount: a currency next to a number, a number with a scale word, or a number with thousands separators. */
export const FIGURE = new RegExp(
  [
    String.raw`${CURRENCY}\d[\d,.]*`,
    String.raw`\d[\d,.]*\s${CODE}\b`,
    String.raw`\d[\d,.]*\s?${SCALE}`,
    String.raw`\b\d{1,3}(?:[,\u202f ]\d{3})+(?:\.\d+)?\b`,
  ].join('|'),
  'i',
);

const SCALES: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
};
const SCALE_WORD = `(${Object.keys(SCALES).join('|')})\\b`;
const SCALE_IN = new RegExp(SCALE_WORD, 'i');
const SCALE_AFTER = new RegExp(`^\\s?${SCALE_WORD}`, 'i');

/**
 * The amount a figure found in `text` states, and half its last digit's unit at its scale (how far
 * the rounded figure may be from the value it rounds); null when it names no number.
 */
function statedAmount(
  text: string,
  found: RegExpExecArray,
): { value: number; half: number } | null {
  const number = /\d(?:[\d,.]|[\u202f ](?=\d{3}))*/.exec(found[0])?.[0].replace(/[.,]$/, '');
  if (!number) return null;
  const plain = number.replace(/[,\u202f ]/g, '');
  const decimals = plain.includes('.') ? plain.length - plain.indexOf('.') - 1 : 0;
  const word =
    SCALE_IN.exec(found[0])?.[1] ??
    SCALE_AFTER.exec(text.slice(found.index + found[0].length))?.[1];
  const scale = word ? SCALES[word.toLowerCase()]! : 1;
  return { value: Number(plain) * scale, half: (0.5 * scale) / 10 ** decimals };
}

/** The first figure in a stale reason that is not the recorded one it explains (`own`), if any. */
function otherFigure(text: string, own: unknown): string | null {
  for (const found of text.matchAll(new RegExp(FIGURE.source, 'gi'))) {
    const stated = statedAmount(text, found);
    const same =
      stated !== null &&
      typeof own === 'number' &&
      Math.abs(stated.value - own) <= stated.half * (1 + 1e-9);
    if (!same) return found[0];
  }
  return null;
}

/** The value at `at` in a parsed record (undefined where there is none). */
function valueAt(record: unknown, at: readonly (string | number)[]): unknown {
  return at.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
    record,
  );
}

/**
 * A rule on the reasons under one kind of key (`reason`: a null reason, a stale reason): `figure`
 * finds what a reason states that it must not, given the record and the reason's place.
 */
function figureRule(
  name: string,
  reason: (key: string) => boolean,
  figure: (text: string, record: unknown, at: (string | number)[]) => string | null,
  wording: { message: (figure: string) => string; fix: string },
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      const files = [
        ...ctx.assets.map((a) => a.file),
        ...(ctx.market?.stablecoins ?? []).map((c) => c.file),
      ];
      for (const file of files)
        for (const [at, text] of textsOf(file.value)) {
          if (!reason(String(at[at.length - 1]))) continue;
          const found = figure(text, file.value, at);
          if (found) problems.push(problemAt(file, at, name, wording.message(found), wording.fix));
        }
      return problems;
    },
  };
}

export const nullReasonNoFigure = figureRule(
  'null-reason-no-figure',
  (key) => /null_reason$/.test(key),
  (text) => FIGURE.exec(text)?.[0] ?? null,
  {
    message: (figure) => `states a figure ("${figure}") for a value that is not recorded`,
    fix: 'record the figure with its date and primary source, or say only why none is recorded (e.g. "No dated figure from the issuer or an aggregator\'s own record is known.")',
  },
);

export const staleReasonNoFigure = figureRule(
  'stale-reason-no-figure',
  (key) => key === 'stale_reason',
  (text, record, at) => otherFigure(text, valueAt(record, [...at.slice(0, -1), 'value'])),
  {
    message: (figure) =>
      `states a figure ("${figure}") other than the recorded one, without its date or source`,
    fix: 'record the newer figure with its date and primary source (the old one moves into history), or say only why no newer figure is recorded (e.g. "The issuer has published no dated figure since.")',
  },
);
