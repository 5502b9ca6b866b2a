// Point-in-time reads (`dataset_version=`): the current data, and every release committed under
// data/releases/ with its body, which the build installs into build/releases/ after checking the
// digests (src/dataset/release-bodies.ts); an earlier local build is never kept there. The server
// answers a named older version from its files, loaded on first use, with the same functions as
// the current one. A named version's answer never changes: it is cached as immutable.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AssetProfile } from '../domain/api.ts';
import { readDataset, readProfiles, type DatasetCore } from '../dataset/artifact.ts';
import type { ParamProblem } from './params.ts';
import { VERSION } from '../dataset/version.ts';
import { assetSummary } from '../dataset/asset-shapes.ts';
import type { RegistrySource } from './registry-list.ts';
import { sha256OfFile } from '../lib/file-hash.ts';

export function releasesDir(datasetFile: string): string {
  return path.join(path.dirname(datasetFile), 'releases');
}

function storedVersions(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((v) => VERSION.test(v));
}

/**
 * What a point-in-time answer says about the release it comes from: its version, when it was
 * generated, and the SHA-256 of its dataset body, the digest its release manifest states under
 * `body.core.sha256` (and the manifest's signature covers). Sent as headers and signed.
 */
export interface ReleaseFacts {
  version: string;
  generatedAt: string;
  /** Hex SHA-256 of the release's dataset body (build/releases/<version>.json). */
  digest: string;
}

export interface Release {
  core: DatasetCore;
  facts: ReleaseFacts;
  source: RegistrySource;
  profile(tfin: string): AssetProfile | undefined;
  /** Its TFINs (for the suggestion index of a miss). */
  tfins(): Iterable<string>;
}

export interface Releases {
  current: string;
  /** The versions that can be named: the current one first, then the kept ones, newest first. */
  versions(): string[];
  /** An older release (loaded once, then kept); null when it is not kept. */
  get(version: string): Release | null;
}

export function openReleases(datasetFile: string, current: string): Releases {
  const dir = releasesDir(datasetFile);
  const loaded = new Map<string, Release>();
  // Listed once: the build that the server serves decided which releases are kept.
  const listed = [
    current,
    ...storedVersions(dir)
      .filter((v) => v !== current)
      .sort()
      .reverse(),
  ];
  const versions = () => [...listed];
  return {
    current,
    versions,
    get(version) {
      if (version === current || !listed.includes(version)) return null;
      let release = loaded.get(version);
      if (!release) {
        const file = path.join(dir, `${version}.json`);
        const core = readDataset(file);
        const profiles = new Map([...readProfiles(file)].map((p) => [p.tfin, p]));
        release = {
          core,
          facts: {
            version: core.dataset_version,
            generatedAt: core.generated_at,
            digest: sha256OfFile(file).toString('hex'),
          },
          source: { core, summaryOf: (tfin) => assetSummary(profiles.get(tfin)!) },
          profile: (tfin) => profiles.get(tfin),
          tfins: () => profiles.keys(),
        };
        // At most one older release is held in memory.
        loaded.clear();
        loaded.set(version, release);
      }
      return release;
    },
  };
}

export function unknownVersionProblem(version: string, releases: Releases): ParamProblem {
  const allowed = releases.versions();
  return {
    code: 'dataset_version_not_found',
    detail: `The dataset version ${version} is not kept by this deployment. Available: ${allowed.join(', ')}.`,
    extensions: { allowed },
  };
}
