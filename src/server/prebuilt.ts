// Loads what the build produced for the datasets: the bytes Astro prerendered for each dataset
// view (with their .br/.gz siblings) and the packed profile bodies, ready for the fast path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readDataset, type DatasetCore } from '../dataset/artifact.ts';
import { registryRuntime, type RegistryRuntime } from '../dataset/registry-runtime.ts';
import { gzipOnly, precompute, precomputeFile, type Precomputed } from './precomputed.ts';
import { readPack } from './profile-pack.ts';

export interface Prebuilt {
  core: DatasetCore;
  registry: RegistryRuntime;
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
export const PROFILES_PACK = path.join('internal', 'registry-profiles.pack');

export function loadPrebuilt(distDir: string, datasetFile: string): Prebuilt {
  const client = path.join(distDir, 'client');
  const core = readDataset(datasetFile);
  const views = new Map<string, Precomputed>();
  for (const route of PRERENDERED_VIEWS) {
    const file = path.join(client, ...route.slice(1).split('/'));
    const head = readFileSync(file).subarray(0, 4096).toString('utf8');
    const version =
      /"dataset_version":"([^"]+)"/.exec(head)?.[1] ??
      /"dataset_version":"([^"]+)"/.exec(readFileSync(file, 'utf8'))?.[1];
    if (version !== core.dataset_version) {
      throw new Error(
        `dist/ was built from dataset ${version} but ${datasetFile} is ${core.dataset_version}: run \`npm run build\``,
      );
    }
    views.set(route, precomputeFile(file, JSON_TYPE));
  }
  const { entries, blob } = readPack(path.join(client, PROFILES_PACK));
  const profiles = new Map<string, Precomputed>();
  const slice = (r: [number, number]) => blob.subarray(r[0], r[0] + r[1]);
  for (const e of entries) {
    profiles.set(
      e.tfin,
      e.identity
        ? precompute(slice(e.identity), JSON_TYPE, {
            eager: false,
            precompressed: { gzip: slice(e.gzip), ...(e.br ? { br: slice(e.br) } : {}) },
          })
        : gzipOnly(slice(e.gzip), e.tag, JSON_TYPE),
    );
  }
  const registry = registryRuntime(core, (tfin) =>
    profiles.get(tfin)?.bodyFor('identity').toString('utf8'),
  );
  return { core, registry, views, profiles };
}
