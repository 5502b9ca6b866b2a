// The single-asset lookup parameters and the nearest known IDs for a miss.
import { TFIN_PATTERN, normaliseTfin } from '../domain/identifiers.ts';
import type { ParamSpec } from './params.ts';
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
    // Cheap bound first: IDs of a different shape are never closer than the current best.
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
