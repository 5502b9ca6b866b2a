// Guessed values: a record whose text says that a fact no source states takes a default (the least
// favourable value, the worst case), and the factors that hold that default. Such a value is a
// guess served as a fact; what no source states is `unknown` with its reason. Counted by the data
// report and refused by the rule `no-guessed-value`.
import type { AssetRecord } from '../domain/asset.ts';
import type { CodeTables, RiskVector } from '../domain/codes.ts';

/** Phrases that claim a default for facts no source states. */
export const GUESS_PHRASES = [
  'least favourable',
  'least-favourable',
  'worst case',
  'worst-case',
  'takes the worst',
  'scores as the shortest',
] as const;

const PATTERN = new RegExp(GUESS_PHRASES.join('|'), 'i');

/** A record saying its class facts follow a named rule: the credit vector is that rule's (classes.ts). */
const CLASS_RULE = /class facts follow rule [a-z-]+/i;

/** Every text of a value, with its path. */
export function textsOf(
  value: unknown,
  at: (string | number)[] = [],
  out: [(string | number)[], string][] = [],
): [(string | number)[], string][] {
  if (typeof value === 'string') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => textsOf(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) textsOf(v, [...at, k], out);
  return out;
}

export interface GuessedValues {
  /** Where the record claims a default, and the phrase. */
  claims: { at: (string | number)[]; phrase: string }[];
  /**
   * `<vector>.<factor>` of each factor holding its table's worst value, not set by a named rule
   * (a note's `rule`, or the class rule the record names for its credit facts).
   */
  factors: string[];
}

export function guessedValues(record: AssetRecord, codes: CodeTables): GuessedValues {
  const claims = textsOf(record).flatMap(([at, text]) => {
    const found = PATTERN.exec(text);
    return found ? [{ at, phrase: found[0] }] : [];
  });
  if (!claims.length) return { claims, factors: [] };
  const factors: string[] = [];
  const byClassRule = textsOf(record).some(([, text]) => CLASS_RULE.test(text));
  for (const [vector, table] of Object.entries(codes.riskFactors.vectors)) {
    if (byClassRule && vector === 'credit') continue;
    for (const [factor, points] of Object.entries(table)) {
      const value = record.risk_factors[vector as RiskVector]?.[factor];
      const note = record.risk_factor_notes?.[vector as RiskVector]?.[factor];
      if (value === undefined || !(value in points) || (note && 'rule' in note)) continue;
      if (points[value] === Math.max(...Object.values(points))) factors.push(`${vector}.${factor}`);
    }
  }
  return { claims, factors };
}
