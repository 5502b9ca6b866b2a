// The rules `null-reason-no-figure` and `stale-reason-no-figure` (npm run data:check): a figure
// is either recorded or absent. A null value's reason (`…null_reason`) says why no figure is
// recorded; it never states the figure (an amount, a market value, a supply), which would serve an
// unrecorded value without its date, source or checks. A figure's `stale_reason` says why no newer
// figure exists: the record serves its figure beside it, so it states none either (a number in the
// text would be read as another figure, or go stale apart from the value). Asset, series and coin
// files are searched.
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

const firstFigure = (text: string) => FIGURE.exec(text)?.[0] ?? null;

/** A rule on the reasons under one kind of key (a null reason, a stale reason): none states a figure. */
function figureRule(
  name: string,
  reason: (key: string) => boolean,
  figure: (text: string) => string | null,
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
          const found = figure(text);
          if (found) problems.push(problemAt(file, at, name, wording.message(found), wording.fix));
        }
      return problems;
    },
  };
}

export const nullReasonNoFigure = figureRule(
  'null-reason-no-figure',
  (key) => /null_reason$/.test(key),
  firstFigure,
  {
    message: (figure) => `states a figure ("${figure}") for a value that is not recorded`,
    fix: 'record the figure with its date and primary source, or say only why none is recorded (e.g. "No dated figure from the issuer or an aggregator\'s own record is known.")',
  },
);

export const staleReasonNoFigure = figureRule(
  'stale-reason-no-figure',
  (key) => key === 'stale_reason',
  firstFigure,
  {
    message: (figure) =>
      `states a figure ("${figure}"); the record serves its figure beside the reason, with its date and source`,
    fix: 'record the newer figure with its date and primary source (the old one moves into history), or say only why no newer figure is recorded (e.g. "The issuer has published no dated figure since.")',
  },
);
