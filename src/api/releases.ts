// Point-in-time reads (`dataset_version=`): the build keeps the current release and the previous
// one beside the dataset (build/releases/<version>.json and .assets.ndjson, copied by postbuild);
// the server answers a named older version from its files, loaded on first use, with the same
// functions as the current one. A named version's answer never changes: it is cached as immutable.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AssetProfile } from '../domain/api.ts';
import { profilesPath, readDataset, readProfiles, type DatasetCore } from '../dataset/artifact.ts';
import type { ParamProblem } from './params.ts';
import { VERSION } from '../dataset/version.ts';
import { assetSummary } from '../dataset/views.ts';
import type { RegistrySource } from './registry-list.ts';

/** Releases kept: the current one and the previous one. */
export const RELEASES_KEPT = 2;

export function releasesDir(datasetFile: string): string {
  return path.join(path.dirname(datasetFile), 'releases');
}

/**
 * Copies the current release into the releases directory and removes all but the newest
 * RELEASES_KEPT (by when they were kept; the current one always stays). Returns the versions kept.
 */
export function keepRelease(datasetFile: string): string[] {
  const dir = releasesDir(datasetFile);
  mkdirSync(dir, { recursive: true });
  const current = readDataset(datasetFile).dataset_version;
  const target = path.join(dir, `${current}.json`);
  if (!existsSync(target)) {
    copyFileSync(profilesPath(datasetFile), profilesPath(target));
    copyFileSync(datasetFile, target);
  }
  const others = storedVersions(dir)
    .filter((v) => v !== current)
    .sort(
      (a, b) =>
        statSync(path.join(dir, `${b}.json`)).mtimeMs -
        statSync(path.join(dir, `${a}.json`)).mtimeMs,
    );
  for (const old of others.slice(RELEASES_KEPT - 1)) {
    rmSync(path.join(dir, `${old}.json`), { force: true });
    rmSync(profilesPath(path.join(dir, `${old}.json`)), { force: true });
  }
  return [current, ...others.slice(0, RELEASES_KEPT - 1)];
}

function storedVersions(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((v) => VERSION.test(v));
}

export interface Release {
  core: DatasetCore;
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
          source: { core, summaryOf: (tfin) => assetSummary(profiles.get(tfin)!) },
          profile: (tfin) => profiles.get(tfin),
          tfins: () => profiles.keys(),
        };
        // At most one older release is held (RELEASES_KEPT - 1).
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
