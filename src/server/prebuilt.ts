// Loads what Astro prerendered for the datasets (the authoritative bytes) and prepares them
// for the fast path: precomputed codings and ETags, lookup hits in a Map.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readDataset, type Dataset } from '../dataset/artifact.ts';
import { indexRegistry, type RegistryIndex } from '../dataset/registry-lookup.ts';
import { precompute, precomputeFile, type Precomputed } from './precomputed.ts';

export interface Prebuilt {
  registry: RegistryIndex;
  /** The default (unfiltered) view of each prerendered dataset endpoint, by path. */
  views: Map<string, Precomputed>;
  profiles: Map<string, Precomputed>;
}

const JSON_TYPE = 'application/json';
export const PRERENDERED_VIEWS = [
  '/v1/registry/assets',
  '/v1/market/stablecoins',
  '/v1/compliance/mica-status',
] as const;

export function parseProfileLines(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + 1;
    if (!line) continue;
    const tab = line.indexOf('\t');
    out.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return out;
}

export function loadPrebuilt(distDir: string, datasetFile: string): Prebuilt {
  const client = path.join(distDir, 'client');
  const dataset: Dataset = readDataset(datasetFile);
  const views = new Map<string, Precomputed>();
  for (const route of PRERENDERED_VIEWS) {
    const file = path.join(client, ...route.slice(1).split('/'));
    const bytes = readFileSync(file);
    const version = (JSON.parse(bytes.toString('utf8')) as { meta: { dataset_version: string } })
      .meta.dataset_version;
    if (version !== dataset.dataset_version) {
      throw new Error(
        `dist/ was built from dataset ${version} but ${datasetFile} is ${dataset.dataset_version}: run \`npm run build\``,
      );
    }
    views.set(route, precomputeFile(file, JSON_TYPE));
  }
  const profiles = new Map<string, Precomputed>();
  const lines = parseProfileLines(
    readFileSync(path.join(client, 'internal', 'registry-profiles.ndjson'), 'utf8'),
  );
  for (const [tfin, body] of lines) profiles.set(tfin, precompute(body, JSON_TYPE));
  return { registry: indexRegistry(dataset), views, profiles };
}
