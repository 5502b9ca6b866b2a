// The single-asset lookup: O(1) by canonical TFIN, with the closest known IDs on a miss.
import type { AssetProfile } from '../domain/api.ts';
import { TFIN_PATTERN, normaliseTfin } from '../domain/identifiers.ts';
import type { Dataset } from './artifact.ts';
import type { ParamSpec } from './params.ts';
import { editDistance } from './zod-problems.ts';

export const LOOKUP_PARAMS: ParamSpec[] = [
  {
    name: 'tfin',
    description: 'TFIN ID of the asset (case-insensitive).',
    pattern: TFIN_PATTERN,
    normalise: normaliseTfin,
    format: 'a TFIN: TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>',
    example: 'TFIN-FUND-ETH-2024-0001',
    maxLength: 64,
  },
];

export interface RegistryIndex {
  dataset: Dataset;
  byTfin: Map<string, AssetProfile>;
}

export function indexRegistry(dataset: Dataset): RegistryIndex {
  return { dataset, byTfin: new Map(dataset.assets.map((a) => [a.tfin, a])) };
}

/** Up to three known TFINs nearest to a well-formed unknown one, nearest first. */
export function closestTfins(index: RegistryIndex, tfin: string, count = 3): string[] {
  return [...index.byTfin.keys()]
    .map((id) => ({ id, d: editDistance(id, tfin) }))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((x) => x.id);
}
