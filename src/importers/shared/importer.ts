// The shape every importer has: it reads its input(s) and returns the files it would write and a
// short report (e.g. what changed between two versions of a register). It never writes itself.
import type { FileChange } from './changes.ts';
import type { SourceInput } from './input.ts';
import type { LedgerReads } from './ledger-reads.ts';

export interface ImportContext {
  /** Project root (data/ lives below it). */
  root: string;
  /** The input given with --file or --url; null for importers that read no file (on-ledger). */
  input: SourceInput | null;
  /** An earlier version of the same input, given with --previous, for importers that compare. */
  previous: SourceInput | null;
  /** YYYY-MM-DD, recorded as the import date (TAI_TODAY overrides it in tests). */
  today: string;
  /** The environment, for importers configured by it (RPC_URL_<LEDGER>). */
  env: Record<string, string | undefined>;
  /** In a refresh, the ledger reads made earlier in the run, so a contract is read once. */
  ledgerReads?: LedgerReads;
}

/** How much of one ledger an importer that reads ledgers could read (for the refresh summary). */
export interface LedgerCoverage {
  ledger: string;
  contracts: number;
  read: number;
  /** Why the ledger could not be read at all (the endpoint did not answer). */
  problem?: string;
}

export interface ImportResult {
  changes: FileChange[];
  report: string[];
  /** Per ledger read: an importer that reads ledgers says how many contracts answered. */
  ledgers?: LedgerCoverage[];
}

export interface Importer {
  name: string;
  summary: string;
  /** Whether --file or --url is required. */
  needsInput: boolean;
  run(context: ImportContext): Promise<ImportResult>;
}
