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
import type { LoadedAsset } from './checks.ts';
import { assetProfile } from './views.ts';

export interface Dataset {
  generated_at: string;
  dataset_version: string;
  as_of: string;
  codes: CodeTables;
  assets: AssetProfile[];
}

export function contentHash(files: readonly { name: string; text: string }[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name)))
    hash.update(`${f.name}\0${f.text}\0`);
  return hash.digest('hex').slice(0, 12);
}

export function buildDataset(
  codes: CodeTables,
  assets: LoadedAsset[],
  hash: string,
  generatedAt: Date,
): Dataset {
  const profiles = assets
    .map((a) => assetProfile(a.record, codes))
    .sort((a, b) => a.tfin.localeCompare(b.tfin));
  const asOf = profiles.reduce((max, p) => (p.as_of > max ? p.as_of : max), '0000-00-00');
  return {
    generated_at: generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    dataset_version: `${asOf}.${hash}`,
    as_of: asOf,
    codes,
    assets: profiles,
  };
}

export function datasetMeta(
  dataset: Pick<Dataset, 'dataset_version' | 'as_of' | 'generated_at'>,
): Meta {
  return {
    api_version: API_VERSION,
    registry_standard: { ...REGISTRY_STANDARD },
    methodology: { ...METHODOLOGY, url: '/docs/methodology' },
    dataset_version: dataset.dataset_version,
    as_of: dataset.as_of,
    generated_at: dataset.generated_at,
  };
}

export const DEFAULT_DATASET_PATH = path.resolve('build', 'dataset.json');

export function readDataset(file = process.env['TAI_DATASET'] ?? DEFAULT_DATASET_PATH): Dataset {
  return JSON.parse(readFileSync(file, 'utf8')) as Dataset;
}
