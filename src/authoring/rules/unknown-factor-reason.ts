// The rule `unknown-factor-reason` (npm run data:check): a risk factor no source states is
// `unknown` with its reason in `risk_factor_notes` (the profile serves the reason); a note's
// `rule` names a rule of FACTOR_RULES and goes with a stated value; a note belongs to a declared
// factor.
import { FACTOR_RULES, UNKNOWN_FACTOR, type RiskVector } from '../../domain/codes.ts';
import type { RiskFactorNotes } from '../../domain/asset.ts';
import { oneOf, perAsset } from './rule.ts';

const RULE_NAMES = Object.keys(FACTOR_RULES);

export const unknownFactorReason = perAsset('unknown-factor-reason', ({ record }, _ctx, report) => {
  const notes: RiskFactorNotes = record.risk_factor_notes ?? {};
  for (const [vector, factors] of Object.entries(record.risk_factors)) {
    for (const [factor, value] of Object.entries(factors)) {
      const note = notes[vector as RiskVector]?.[factor];
      if (value === UNKNOWN_FACTOR && !(note && 'reason' in note))
        report(
          ['risk_factors', vector, factor],
          'is unknown without a reason',
          `add risk_factor_notes.${vector}.${factor}.reason: one sentence saying what no source states, e.g. "No issuer document states the regulatory regime of this token."`,
        );
    }
  }
  for (const [vector, factors] of Object.entries(notes)) {
    for (const [factor, note] of Object.entries(factors)) {
      const at = ['risk_factor_notes', vector, factor];
      const value = record.risk_factors[vector as RiskVector]?.[factor];
      if (value === undefined)
        report(
          at,
          `is a note for "${factor}", which the record does not declare`,
          `remove it, or declare risk_factors.${vector}.${factor}`,
        );
      else if ('reason' in note && value !== UNKNOWN_FACTOR)
        report(
          at,
          `gives a reason, but the factor is "${value}"`,
          `a reason goes with ${UNKNOWN_FACTOR}: remove it, or set the factor to ${UNKNOWN_FACTOR} if no source states it`,
        );
      else if ('rule' in note && value === UNKNOWN_FACTOR)
        report(
          at,
          `names the rule "${note.rule}", but the factor is unknown`,
          'a rule sets a value from stated facts: give the reason instead',
        );
      else if ('rule' in note && !RULE_NAMES.includes(note.rule))
        report(
          [...at, 'rule'],
          `"${note.rule}" is not a named rule`,
          oneOf(note.rule, RULE_NAMES, 'FACTOR_RULES (src/domain/codes.ts)'),
        );
    }
  }
});
