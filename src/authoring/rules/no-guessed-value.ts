// The rule `no-guessed-value` (npm run data:check): no record gives a fact that no source states a
// default value (the least favourable, the worst case) and serves it as a fact. Such a factor is
// `unknown`, with its reason in risk_factor_notes; the text claiming the default goes.
import { guessedValues } from '../../dataset/guessed-values.ts';
import { perAsset } from './rule.ts';

/**
 * Warning mode until the asset records are rewritten (issue 34: the imported records still claim
 * the default). Set to true when `npm run data:report` shows 0 guessed values.
 */
export const GUESSED_VALUES_FAIL_THE_CHECK = false;

const rule = perAsset('no-guessed-value', ({ record }, { codes }, report) => {
  const { claims, factors } = guessedValues(record, codes);
  for (const { at, phrase } of claims)
    report(
      at,
      `says "${phrase}": a fact no source states is given a default value${factors.length ? ` (${factors.join(', ')})` : ''}`,
      `set each such factor to unknown with its reason in risk_factor_notes, and say what is known instead of the default`,
    );
});

export const noGuessedValue = { ...rule, warnOnly: !GUESSED_VALUES_FAIL_THE_CHECK };
