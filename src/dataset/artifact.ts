// The built dataset. On disk: build/dataset.json (the core: provenance, code tables, the compact
// registry index, the market and MiCA sections) and build/dataset.assets.ndjson (one asset
// profile per line, by TFIN). The core is small at any registry size; profiles are streamed.
// Written by scripts/data.ts, read by the Astro endpoints at build and by our server at start.
import { verifiedRecords, type VerifiedEntry } from './verified-report.ts';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeTables } from '../domain/codes.ts';
import { fileLines } from '../lib/lines.ts';
import { fileWriter } from '../lib/file-writer.ts';
import {
  API_VERSION,
  METHODOLOGY,
  REGISTRY_STANDARD,
  type AssetProfile,
  type Meta,
} from '../domain/api.ts';
import type { LoadedAsset, LoadedMarket, LoadedMica } from './loaded.ts';
import { buildMarketSection, type MarketSection } from './market-view.ts';
import { buildMicaSection, micaInputOf, type MicaSection } from './mica-view.ts';
import {
  indexRow,
  registryCoverage,
  type IndexRow,
  type RegistryCoverage,
} from './registry-index.ts';
import { assetProfile } from './asset-shapes.ts';
import { micaRegistersOf } from './mica-authorisation.ts';
import { honestyReport } from './honesty-report.ts';
import { allFigures } from './figures.ts';
import { datasetFreshness, type Freshness } from './freshness.ts';
import { dataReport, ledgerKinds, type DataReport } from './data-report.ts';

export interface RegistrySection {
  /** Date of the latest dated fact among the registry's assets. */
  as_of: string;
  coverage: RegistryCoverage;
  /** One compact row per asset, by TFIN: what filters and sorting need. */
  rows: IndexRow[];
}

/** Figures listed on /docs/data-report (oldest first); `npm run data:report` lists them all. */
export const REPORT_FIGURE_ROWS = 500;

export interface DatasetCore {
  generated_at: string;
  dataset_version: string;
  as_of: string;
  /** How current the figures are at the release's dataset date (data/release.yaml). */
  freshness: Freshness;
  /** Coverage, identifiers, figure ages and sources by kind (/docs/data-report). */
  report: DataReport;
  /** The verified records with their evidence (verified-report.ts); absent in older releases. */
  verified?: VerifiedEntry[];
  codes: CodeTables;
  registry: RegistrySection;
  market: MarketSection;
  mica: MicaSection;
}

/** The core with every asset profile in memory (at build and in tests). */
export interface Dataset extends DatasetCore {
  assets: AssetProfile[];
}

export interface BuildInput {
  codes: CodeTables;
  /** data/release.yaml's dataset date: figures are aged and periods measured to it. */
  datasetDate: string;
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

const latest = (dates: string[]) => dates.reduce((max, d) => (d > max ? d : max), '0000-00-00');

export function buildDataset(input: BuildInput, hash: string, generatedAt: Date): Dataset {
  const { codes, assets, market, mica, datasetDate } = input;
  if (!market?.venues || !mica?.categories || !mica.jurisdictions)
    throw new Error('the market and MiCA data are required to build the dataset');
  const registers = micaRegistersOf(mica);
  const profiles = assets
    .map((a) => assetProfile(a.record, codes, datasetDate, market.fx?.record ?? null, registers))
    .sort((a, b) => (a.tfin < b.tfin ? -1 : 1));
  const marketSection = buildMarketSection(
    market.stablecoins.map((c) => c.record),
    market.venues.record,
    market.fx?.record ?? null,
    codes.stablecoinScores,
    datasetDate,
    codes.sourcePolicy.max_age_days,
    market.totals?.record ?? null,
  );
  const micaSection = buildMicaSection(micaInputOf(mica), codes.readiness);
  const registryAsOf = latest(profiles.map((p) => p.as_of));
  const asOf = latest([registryAsOf, marketSection.as_of, micaSection.as_of]);
  return {
    generated_at: generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    dataset_version: `${datasetDate}.${hash}`,
    as_of: asOf,
    freshness: datasetFreshness(
      allFigures({ assets, market }),
      datasetDate,
      codes.sourcePolicy.max_age_days,
    ),
    verified: verifiedRecords(assets.map((a) => a.record)),
    report: dataReport(
      assets.map((a) => a.record),
      market.stablecoins.map((c) => c.record),
      datasetDate,
      ledgerKinds(codes),
      REPORT_FIGURE_ROWS,
      honestyReport(
        assets.map((a) => a.record),
        codes,
        registers,
        datasetDate,
      ),
    ),
    codes,
    registry: {
      as_of: registryAsOf,
      coverage: registryCoverage(profiles),
      rows: profiles.map(indexRow),
    },
    assets: profiles,
    market: marketSection,
    mica: micaSection,
  };
}

/** `as_of` is the date of the data the response carries (each endpoint dates its own data). */
export function datasetMeta(
  dataset: Pick<DatasetCore, 'dataset_version' | 'as_of' | 'generated_at' | 'freshness'>,
  asOf: string = dataset.as_of,
): Meta {
  return {
    api_version: API_VERSION,
    registry_standard: { ...REGISTRY_STANDARD },
    methodology: { ...METHODOLOGY, url: '/docs/methodology' },
    dataset_version: dataset.dataset_version,
    as_of: asOf,
    generated_at: dataset.generated_at,
    freshness: dataset.freshness,
  };
}

export const DEFAULT_DATASET_PATH = path.resolve('build', 'dataset.json');

export function datasetPath(): string {
  return process.env['TAI_DATASET'] ?? DEFAULT_DATASET_PATH;
}

/** The profiles file beside a dataset file: dataset.json → dataset.assets.ndjson. */
export function profilesPath(datasetFile: string): string {
  return datasetFile.replace(/\.json$/, '') + '.assets.ndjson';
}

/** Writes both files atomically (temporary names, then renames). */
export function writeDataset(dataset: Dataset, file: string): void {
  const { assets, ...core } = dataset;
  const ndjson = profilesPath(file);
  const out = fileWriter(`${ndjson}.tmp`);
  try {
    for (const a of assets) out.write(`${JSON.stringify(a)}\n`);
  } finally {
    out.close();
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(core));
  renameSync(`${ndjson}.tmp`, ndjson);
  renameSync(`${file}.tmp`, file);
}

export function readDataset(file = datasetPath()): DatasetCore {
  const core = JSON.parse(readFileSync(file, 'utf8')) as DatasetCore;
  shared.parses++;
  return core;
}

/** How many times this process has parsed a core (readDataset), every module copy counted. */
export function coreParses(): number {
  return shared.parses;
}

/**
 * Kept on globalThis (under a registered symbol), not in this module: the emitter
 * (scripts/emit.ts) parses the core and then runs `astro build` in its own process, and Astro's
 * prerendered pages load their own bundled copy of this module; through the one map they read the
 * emitter's core instead of parsing it again. The core is parsed once per build.
 */
const SHARED_CORES = Symbol.for('tai.dataset.sharedCores');
interface SharedCores {
  cores: Map<string, { stamp: string; core: Readonly<DatasetCore> }>;
  parses: number;
}
const shared: SharedCores = ((globalThis as { [SHARED_CORES]?: SharedCores })[SHARED_CORES] ??= {
  cores: new Map(),
  parses: 0,
});

/**
 * The core for the build: parsed once per process (at 100,000 assets it is ~100 MB of JSON, and
 * the emitter and a dozen pages read it), again only if the file changed. Deeply frozen, so a
 * reader that would change what the next one reads fails instead.
 */
export function sharedDataset(file = datasetPath()): Readonly<DatasetCore> {
  const { mtimeMs, size } = statSync(file);
  const stamp = `${mtimeMs}:${size}`;
  const key = path.resolve(file);
  const kept = shared.cores.get(key);
  if (kept?.stamp === stamp) return kept.core;
  const core = deepFreeze(readDataset(file));
  shared.cores.set(key, { stamp, core });
  return core;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The asset profiles, in TFIN order, read a chunk at a time; `limit` reads only the first ones. */
export function* readProfiles(file = datasetPath(), limit = Infinity): Generator<AssetProfile> {
  let n = 0;
  for (const line of fileLines(profilesPath(file))) {
    if (n >= limit) return;
    yield JSON.parse(line) as AssetProfile;
    n++;
  }
}
