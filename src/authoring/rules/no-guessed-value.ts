// The rule `no-guessed-value` (npm run data:check): no record gives a fact that no source states a
// default value (the least favourable, the worst case) and serves it as a fact. Such a factor is
// `unknown`, with its reason in risk_factor_notes; the text claiming the default goes.
import { guessedValues } from '../../dataset/guessed-values.ts';
import { perAsset } from './rule.ts';

const rule = perAsset('no-guessed-value', ({ record }, { codes }, report) => {
  const { claims, factors } = guessedValues(record, codes);
  for (const { at, phrase } of claims)
    report(
      at,
      `says "${phrase}": a fact no source states is given a default value${factors.length ? ` (${factors.join(', ')})` : ''}`,
      `set each such factor to unknown with its reason in risk_factor_notes, and say what is known instead of the default`,
    );
});

export const noGuessedValue = rule;
