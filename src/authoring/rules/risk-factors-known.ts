// The rule `risk-factors-known` (npm run data:check): every factor of the code table is declared
// with one of its values, or `unknown` (accepted for every factor; its reason is checked by
// `unknown-factor-reason`).
import { DERIVED_FACTORS } from '../../dataset/derive.ts';
import { UNKNOWN_FACTOR } from '../../domain/codes.ts';
import { oneOf, perAsset } from './rule.ts';

export const riskFactorsKnown = perAsset('risk-factors-known', ({ record }, { codes }, report) => {
  for (const [vector, table] of Object.entries(codes.riskFactors.vectors)) {
    const declared = record.risk_factors[vector as keyof typeof record.risk_factors] ?? {};
    const derived = DERIVED_FACTORS[vector as keyof typeof DERIVED_FACTORS] ?? {};
    for (const factor of Object.keys(table)) {
      if (factor in derived) {
        if (factor in declared)
          report(
            ['risk_factors', vector, factor],
            'is derived from dates.launch_date and as_of',
            `remove "${factor}"`,
          );
        continue;
      }
      const value = declared[factor];
      const allowed = Object.keys(table[factor] ?? {});
      if (value === undefined)
        report(
          ['risk_factors', vector],
          `does not declare the factor "${factor}"`,
          `add "${factor}:" with one of: ${allowed.join(', ')} (or ${UNKNOWN_FACTOR}, with its reason in risk_factor_notes)`,
        );
      else if (value !== UNKNOWN_FACTOR && !allowed.includes(value))
        report(
          ['risk_factors', vector, factor],
          `"${value}" is not a value of this factor in data/codes/risk-factors.yaml`,
          oneOf(value, [...allowed, UNKNOWN_FACTOR]),
        );
    }
    for (const factor of Object.keys(declared)) {
      if (!(factor in table))
        report(
          ['risk_factors', vector, factor],
          `is not a factor of the ${vector} vector`,
          oneOf(factor, Object.keys(table)),
        );
    }
  }
});
