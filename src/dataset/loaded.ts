// The data files as loaded at build time (authoring/load.ts): each record with the file it came
// from. Derivation (figures, the MiCA section, the artifact) reads these; authoring fills them.
import type { AssetRecord } from '../domain/asset.ts';
import type { FxFile, MarketTotalsFile, StablecoinRecord, VenuesFile } from '../domain/market.ts';
import type {
  CategoriesFile,
  JurisdictionsFile,
  MemberStateRecord,
  TransitionalPeriodsFile,
} from '../domain/mica.ts';
import type {
  ArtRegisterFile,
  CaspsRegisterFile,
  EmtRegisterFile,
  NonCompliantRegisterFile,
} from '../domain/mica-register.ts';

export interface YamlFile {
  /** Project-relative path with forward slashes, as shown to editors. */
  file: string;
  value: unknown;
  /** Line and column of the value at `at`, or of its nearest existing parent. */
  locate(at: readonly (string | number)[]): { line: number; column: number } | null;
}

export interface Loaded<T> {
  file: YamlFile;
  record: T;
  /** The record failed its schema: it is checked too, but may lack what a check reads. */
  schemaFailed?: true;
}

export type LoadedAsset = Loaded<AssetRecord>;

export interface LoadedMarket {
  stablecoins: Loaded<StablecoinRecord>[];
  venues: Loaded<VenuesFile> | null;
  fx: Loaded<FxFile> | null;
  /** data/stablecoin-market-totals.yaml: dated totals of the whole market (optional). */
  totals?: Loaded<MarketTotalsFile> | null;
}

/** The whole-market totals file, under data/. */
export const MARKET_TOTALS_FILE = 'stablecoin-market-totals.yaml';

/** The MiCA files beyond categories and member states (authoring/mica-load.ts). */
export interface LoadedMicaExtras {
  register: {
    casps: Loaded<CaspsRegisterFile> | null;
    emt: Loaded<EmtRegisterFile> | null;
    art: Loaded<ArtRegisterFile> | null;
    nonCompliant: Loaded<NonCompliantRegisterFile> | null;
  };
  transitional: Loaded<TransitionalPeriodsFile> | null;
}

export interface LoadedMica extends LoadedMicaExtras {
  categories: Loaded<CategoriesFile> | null;
  memberStates: Loaded<MemberStateRecord>[];
  jurisdictions: Loaded<JurisdictionsFile> | null;
}
