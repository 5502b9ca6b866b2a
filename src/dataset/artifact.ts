// The built dataset (build/dataset.json): validated records with every derived value, plus the
// provenance that goes into each response's `meta`. Written by scripts/build-data.ts, read by the
// Astro endpoints at build and by our server at start.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeTables } from '../domain/codes.ts';
import {
  API_VERSION,
  METHODOLOGY,
  REGISTRY_STANDARD,
  type AssetProfile,
  type Meta,
} from '../domain/api.ts';
import type { LoadedAsset, LoadedMarket, LoadedMica } from './checks.ts';
import { buildMarketSection, type MarketSection } from './market-view.ts';
import { buildMicaSection, type MicaSection } from './mica-view.ts';
import { assetProfile } from './views.ts';

export interface Dataset {
  generated_at: string;
  dataset_version: string;
  as_of: string;
  /** Date of the latest dated fact among the registry's assets. */
  registry_as_of: string;
  codes: CodeTables;
  assets: AssetProfile[];
  market: MarketSection;
  mica: MicaSection;
}

export interface BuildInput {
  codes: CodeTables;
  assets: LoadedAsset[];
  market: LoadedMarket | null;
  mica: LoadedMica | null;
}

export function contentHash(files: readonly { name: string; text: string }[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name)))
    hash.update(`${f.name}\0${f.text}\0`);
  return hash.digest('hex').slice(0, 12);
}

export function buildDataset(input: BuildInput, hash: string, generatedAt: Date): Dataset {
  const { codes, assets, market, mica } = input;
  if (!market?.venues || !mica?.categories || !mica.jurisdictions)
    throw new Error('the market and MiCA data are required to build the dataset');
  const profiles = assets
    .map((a) => assetProfile(a.record, codes))
    .sort((a, b) => a.tfin.localeCompare(b.tfin));
  const marketSection = buildMarketSection(
    market.stablecoins.map((c) => c.record),
    market.venues.record,
    market.fx?.record ?? null,
    codes.stablecoinScores,
  );
  const micaSection = buildMicaSection(
    mica.categories.record,
    mica.memberStates.map((m) => m.record),
    mica.jurisdictions.record,
    codes.readiness,
  );
  const asOf = [...profiles.map((p) => p.as_of), marketSection.as_of, micaSection.as_of]
    .sort()
    .at(-1)!;
  return {
    generated_at: generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    dataset_version: `${asOf}.${hash}`,
    as_of: asOf,
    registry_as_of:
      profiles
        .map((p) => p.as_of)
        .sort()
        .at(-1) ?? asOf,
    codes,
    assets: profiles,
    market: marketSection,
    mica: micaSection,
  };
}

/** `as_of` is the date of the data the response carries (each endpoint dates its own data). */
export function datasetMeta(
  dataset: Pick<Dataset, 'dataset_version' | 'as_of' | 'generated_at'>,
  asOf: string = dataset.as_of,
): Meta {
  return {
    api_version: API_VERSION,
    registry_standard: { ...REGISTRY_STANDARD },
    methodology: { ...METHODOLOGY, url: '/docs/methodology' },
    dataset_version: dataset.dataset_version,
    as_of: asOf,
    generated_at: dataset.generated_at,
  };
}

export const DEFAULT_DATASET_PATH = path.resolve('build', 'dataset.json');

export function readDataset(file = process.env['TAI_DATASET'] ?? DEFAULT_DATASET_PATH): Dataset {
  return JSON.parse(readFileSync(file, 'utf8')) as Dataset;
}
