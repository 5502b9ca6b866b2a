// The refresh itself: run every importer whose source is configured, in the configuration's
// order, each on the data the previous ones left, then raise the dataset date to the day of the
// refresh if any source answered. Each importer's changes pass the text rules (unsafe-text.ts),
// the plausibility checks (plausibility.ts) and the guard (guards.ts) before they are written; an
// importer whose input is bad or unreachable writes nothing and the others go on. Every file written is
// journalled with its previous text, so the caller can put everything back (fail closed).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { applyChanges, plan, type PlannedChange } from '../shared/changes.ts';
import { readDataDocs } from '../shared/data-docs.ts';
import { ImportError } from '../shared/errors.ts';
import { fetchInput, readFileInput, type SourceInput } from '../shared/input.ts';
import { storedValidators } from '../shared/validators.ts';
import { issuerLeis } from '../shared/issuer-leis.ts';
import { importers } from '../index.ts';
import { expand, type RefreshConfig, type SourceEntry } from './config.ts';
import { figureChanges, guard, type FigureChange, type HeldChange } from './guards.ts';
import { checkPlausible, type Refusal } from './plausibility.ts';
import { keepOutUnsafeText } from './unsafe-text.ts';
import type { LedgerCoverage } from '../shared/importer.ts';
import { LedgerReads } from '../shared/ledger-reads.ts';

export const RELEASE_FILE = 'data/release.yaml';

export interface SourceOutcome {
  /** The importer and its file or URL as configured (variables not expanded: they may be secret). */
  label: string;
  /** `not read`: it ran, but nothing it reads answered (every ledger's contracts failed). */
  status: 'written' | 'unchanged' | 'not configured' | 'not modified' | 'failed' | 'not read';
  /** Why not configured, or what failed. */
  reason?: string;
  files: string[];
  held: HeldChange[];
  /** Reads and texts kept out before the guard (plausibility.ts, unsafe-text.ts). */
  refused: Refusal[];
  /** Per ledger, for an importer that reads ledgers: how many of its contracts answered. */
  ledgers: LedgerCoverage[];
  /** The importer's own report. */
  report: string[];
}

export interface RefreshOutcome {
  date: string;
  previousDatasetDate: string | null;
  sources: SourceOutcome[];
  changed: FigureChange[];
  held: HeldChange[];
  refused: Refusal[];
  /** Whether any configured source answered; the dataset date moves only then. */
  answered: boolean;
  /** Every file written, with its text before the refresh (null: the file is new). */
  journal: Map<string, string | null>;
}

export interface RefreshOptions {
  root: string;
  config: RefreshConfig;
  /** YYYY-MM-DD: the day of the refresh, which becomes the dataset date. */
  date: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number | undefined;
  /** The run's clock (ms since 1970): ledger blocks must be recent by it. Default: now. */
  nowMs?: number | undefined;
}

/** A source that answered: read (written or not) or unchanged since the last import. */
export const answered = (s: Pick<SourceOutcome, 'status'>) =>
  s.status === 'written' || s.status === 'unchanged' || s.status === 'not modified';

/** The GLEIF query's `{issuer-leis}`: every issuer LEI the data cites, sorted, comma-separated. */
function issuerLeiList(root: string): string {
  const leis = issuerLeis([
    ...readDataDocs(root, 'data/assets'),
    ...readDataDocs(root, 'data/stablecoins'),
  ]);
  return [...leis.keys()].sort().join(',');
}

const labelOf = (s: SourceEntry) =>
  `${s.importer}${s.file ? ` ${s.file}` : ''}${s.url ? ` ${s.url}` : ''}`;

function write(root: string, journal: Map<string, string | null>, changes: PlannedChange[]) {
  for (const c of changes) if (!journal.has(c.path)) journal.set(c.path, c.before);
  applyChanges(root, changes);
}

/** Puts every journalled file back as it was before the refresh. */
export function restore(root: string, journal: ReadonlyMap<string, string | null>): void {
  applyChanges(
    root,
    [...journal]
      .filter((entry): entry is [string, string] => entry[1] !== null)
      .map(([p, before]) => ({ path: p, before: null, after: before })),
  );
  // A file the refresh created did not exist before it.
  for (const [p, before] of journal)
    if (before === null) rmSync(path.join(root, p), { force: true });
}

function readDatasetDate(root: string): string | null {
  const current = parseDocument(readFileSync(path.join(root, RELEASE_FILE), 'utf8')).get(
    'dataset_date',
  );
  return typeof current === 'string' ? current : null;
}

/** Raises data/release.yaml's dataset_date to `date` (never lowers it); comments are kept. */
function raiseDatasetDate(root: string, date: string, journal: Map<string, string | null>) {
  const file = path.join(root, RELEASE_FILE);
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text);
  const current = doc.get('dataset_date');
  const previous = typeof current === 'string' ? current : null;
  if (previous && previous >= date) return previous;
  doc.set('dataset_date', doc.createNode(date));
  const node = doc.get('dataset_date', true) as { type?: string };
  node.type = 'QUOTE_DOUBLE';
  write(root, journal, [{ path: RELEASE_FILE, before: text, after: doc.toString() }]);
  return previous;
}

async function inputOf(
  entry: SourceEntry,
  root: string,
  env: RefreshOptions['env'],
  timeoutMs: number | undefined,
): Promise<
  | { input: SourceInput | null; previous: SourceInput | null }
  | { skip: SourceOutcome['status']; reason: string }
> {
  const given = entry.file ?? entry.url;
  if (!given) return { input: null, previous: null };
  const expanded = expand(given, env);
  if ('missing' in expanded)
    return { skip: 'not configured', reason: `${expanded.missing.join(', ')} not set` };
  let previous: SourceInput | null = null;
  if (entry.previous) {
    const p = expand(entry.previous, env);
    if ('missing' in p)
      return { skip: 'not configured', reason: `${p.missing.join(', ')} not set` };
    previous = readFileInput(p.value);
  }
  if (entry.file) return { input: readFileInput(expanded.value), previous };
  const url = expanded.value.replace('{issuer-leis}', () => issuerLeiList(root));
  const input = await fetchInput(url, {
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(storedValidators(root, url) ? { previous: storedValidators(root, url)! } : {}),
  });
  if (!input) return { skip: 'not modified', reason: 'not modified since the last import' };
  return { input, previous };
}

/** `journal` is the caller's, so that it can put the files back even if a step throws. */
export async function refresh(
  options: RefreshOptions,
  journal = new Map<string, string | null>(),
): Promise<RefreshOutcome> {
  const { root, config, date, env } = options;
  const clockMs = options.nowMs ?? Date.now();
  const sources: SourceOutcome[] = [];
  const changed: FigureChange[] = [];
  // What `onchain` reads, `coin-supply` takes at the same block rather than reading it again.
  const ledgerReads = new LedgerReads();
  for (const entry of config.sources) {
    const outcome: SourceOutcome = {
      label: labelOf(entry),
      status: 'unchanged',
      files: [],
      held: [],
      refused: [],
      ledgers: [],
      report: [],
    };
    sources.push(outcome);
    const importer = await importers[entry.importer]!();
    if (importer.needsInput && !entry.file && !entry.url) {
      Object.assign(outcome, { status: 'not configured', reason: 'no file or url given' });
      continue;
    }
    // An empty variable (a CI secret that is not set) configures nothing.
    const rpcSet = Object.entries(env).some(([k, v]) => k.startsWith('RPC_URL_') && v);
    if ((entry.importer === 'onchain' || entry.importer === 'coin-supply') && !rpcSet) {
      Object.assign(outcome, { status: 'not configured', reason: 'no RPC_URL_<LEDGER> set' });
      continue;
    }
    try {
      const inputs = await inputOf(entry, root, env, options.timeoutMs);
      if ('skip' in inputs) {
        Object.assign(outcome, { status: inputs.skip, reason: inputs.reason });
        continue;
      }
      const result = await importer.run({ root, ...inputs, today: date, env, ledgerReads });
      outcome.report = result.report;
      outcome.ledgers = result.ledgers ?? [];
      const safe = keepOutUnsafeText(plan(root, result.changes));
      const plausible = checkPlausible(safe.publish, config.guards.plausibility, clockMs);
      outcome.refused = [...safe.refused, ...plausible.refused];
      const { publish, held } = guard(plausible.publish, config.guards.max_change_pct);
      outcome.held = held;
      if (publish.length) {
        changed.push(...publish.flatMap(figureChanges));
        write(root, journal, publish);
        outcome.status = 'written';
        outcome.files = publish.map((c) => c.path);
      }
      if (outcome.ledgers.length && outcome.ledgers.every((l) => l.read === 0))
        Object.assign(outcome, {
          status: 'not read',
          reason: `none of ${outcome.ledgers.reduce((n, l) => n + l.contracts, 0)} contract(s) on ${outcome.ledgers.length} ledger(s) answered`,
        });
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      Object.assign(outcome, { status: 'failed', reason: error.message.replace(/\n\s*/g, '; ') });
    }
  }
  // The dataset date moves only when a source answered: a run that read nothing describes no day.
  const anyAnswered = sources.some(answered);
  const datasetDate = readDatasetDate(root);
  const previousDatasetDate = anyAnswered ? raiseDatasetDate(root, date, journal) : datasetDate;
  return {
    date,
    previousDatasetDate,
    sources,
    changed,
    held: sources.flatMap((s) => s.held),
    refused: sources.flatMap((s) => s.refused),
    answered: anyAnswered,
    journal,
  };
}
