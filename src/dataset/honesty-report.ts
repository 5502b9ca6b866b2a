// The data report's honesty lines (issue 34): guessed values, unknown factors by factor, `art`
// classifications without an authorisation, near-empty records and issuer domicile coverage, with
// their release targets. Printed by `npm run data:report` beside the coverage lines.
import type { AssetRecord } from '../domain/asset.ts';
import { UNKNOWN_FACTOR, type CodeTables } from '../domain/codes.ts';
import { guessedValues } from './guessed-values.ts';
import { micaAuthorisation, type MicaRegisters } from './mica-authorisation.ts';
import { operatingHistory, operatingUntil } from './derive.ts';
import { siblingDisagreements } from './parents.ts';

export interface HonestyReport {
  /** Factors holding a default the record says it gave to a fact no source states. */
  guessed_values: number;
  guessed_records: number;
  /** `<vector>.<factor>` → records where it is unknown (operating history included). */
  unknown_factors: Record<string, number>;
  /** Records with at least one unknown factor. */
  records_with_unknown: number;
  /** `art` or `emt` classifications served without a known authorisation. */
  classification_without_authorisation: number;
  /** Records leaving NEAR_EMPTY_AT_LEAST of MAIN_FIELDS unknown. */
  near_empty: { records: number; of: number };
  issuer_domicile: { with: number; of: number };
  /** Sibling share classes that disagree on a fund-level fact; null until SIBLING_DISAGREEMENTS is set. */
  sibling_disagreements: number | null;
}

/** The seven main fields of a record; each is unknown when the record leaves it null. */
export const MAIN_FIELDS: Record<string, (a: AssetRecord) => boolean> = {
  issuer_lei: (a) => a.issuer.lei === null,
  issuer_domicile: (a) => a.issuer.jurisdiction === null,
  custodian: (a) => a.custody.custodian === null,
  amount: (a) => a.amount === null,
  launch_date: (a) => a.dates.launch_date === null,
  isin: (a) => a.identifiers.isin === null,
  contract: (a) => a.ledgers.every((l) => l.contract_address === null),
};
export const NEAR_EMPTY_AT_LEAST = 5;

/**
 * Hook for the count of sibling classes (share classes of one fund, series of one programme) that
 * disagree on a fund-level fact: the function that counts them is set here when it exists; until
 * then the report says the count is not made (null), and its target is not met.
 */
export const SIBLING_DISAGREEMENTS: ((assets: readonly AssetRecord[]) => number) | null = (
  assets,
) => siblingDisagreements(assets).length;

export const isNearEmpty = (a: AssetRecord) =>
  Object.values(MAIN_FIELDS).filter((unknown) => unknown(a)).length >= NEAR_EMPTY_AT_LEAST;

/** The factors of a record that are unknown, as `<vector>.<factor>`. */
function unknownFactors(a: AssetRecord, datasetDate: string): string[] {
  const declared = Object.entries(a.risk_factors).flatMap(([vector, factors]) =>
    Object.entries(factors).flatMap(([f, v]) => (v === UNKNOWN_FACTOR ? [`${vector}.${f}`] : [])),
  );
  const history = operatingHistory(a.dates.launch_date, operatingUntil(a, datasetDate));
  return history === UNKNOWN_FACTOR ? [...declared, 'operational.operating_history'] : declared;
}

export function honestyReport(
  assets: readonly AssetRecord[],
  codes: CodeTables,
  registers: MicaRegisters,
  datasetDate: string,
): HonestyReport {
  const guessed = assets.map((a) => guessedValues(a, codes));
  const unknown = assets.map((a) => unknownFactors(a, datasetDate));
  const byFactor: Record<string, number> = {};
  for (const f of unknown.flat().sort()) byFactor[f] = (byFactor[f] ?? 0) + 1;
  return {
    guessed_values: guessed.reduce((n, g) => n + g.factors.length, 0),
    guessed_records: guessed.filter((g) => g.claims.length).length,
    unknown_factors: byFactor,
    records_with_unknown: unknown.filter((u) => u.length).length,
    classification_without_authorisation: assets.filter(
      (a) =>
        ['art', 'emt'].includes(a.mica.status) &&
        micaAuthorisation(a, registers).status === 'unknown',
    ).length,
    near_empty: { records: assets.filter(isNearEmpty).length, of: assets.length },
    issuer_domicile: {
      with: assets.filter((a) => a.issuer.jurisdiction !== null).length,
      of: assets.length,
    },
    sibling_disagreements: SIBLING_DISAGREEMENTS ? SIBLING_DISAGREEMENTS(assets) : null,
  };
}
