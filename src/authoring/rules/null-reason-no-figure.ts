// The rule `null-reason-no-figure` (npm run data:check): a figure is either recorded or absent. A
// null value's reason (`…null_reason`) says why no figure is recorded; it never states the figure
// (an amount, a market value, a supply), which would serve an unrecorded value without its date,
// source or checks. Asset, series and coin files are searched.
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

export const nullReasonNoFigure: DataCheck = {
  name: 'null-reason-no-figure',
  run(ctx) {
    const problems: DataProblem[] = [];
    const files = [
      ...ctx.assets.map((a) => a.file),
      ...(ctx.market?.stablecoins ?? []).map((c) => c.file),
    ];
    for (const file of files)
      for (const [at, text] of textsOf(file.value)) {
        if (!/null_reason$/.test(String(at[at.length - 1]))) continue;
        const found = FIGURE.exec(text);
        if (found)
          problems.push(
            problemAt(
              file,
              at,
              'null-reason-no-figure',
              `states a figure ("${found[0]}") for a value that is not recorded`,
              'record the figure with its date and primary source, or say only why none is recorded (e.g. "No dated figure from the issuer or an aggregator\'s own record is known.")',
            ),
          );
      }
    return problems;
  },
};
