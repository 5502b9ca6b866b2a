// What a refresh did, for the operator's log and the pull request an editor reviews: each source's
// outcome, every figure that changed, every change held by the guard, the ledgers and contracts
// that could not be read, the figures past their maximum age, and the data check and release.
import type { FigureAge } from '../../dataset/freshness.ts';
import { changePct, type FigureChange, type HeldChange } from './guards.ts';
import type { Refusal } from './plausibility.ts';
import type { RefreshOutcome } from './run.ts';

export interface Verdict {
  /** `not run`: no source answered, so there was nothing to check or release. */
  check: 'passed' | 'past maximum age only' | 'failed' | 'not run';
  /** The data check's output when it did not pass (the problems, with file and fix). */
  checkOutput?: string;
  release: string | null;
  ages: FigureAge[];
  /** The figures already past their maximum age at the previous dataset date. */
  pastBefore: ReadonlySet<string>;
}

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
const signed = (pct: number) =>
  Number.isFinite(pct) ? `${pct >= 0 ? '+' : ''}${pct.toFixed(1)} %` : 'from zero';
const dated = (f: { value: number; as_of: string | null } | null) =>
  f ? `${number(f.value)}${f.as_of ? ` (${f.as_of})` : ''}` : 'none';

function changeLine(c: FigureChange): string {
  const move =
    c.before && c.after && c.before.value !== c.after.value
      ? `, ${signed(changePct(c.before.value, c.after.value))}`
      : '';
  return `  ${c.path} ${c.at} [${c.kind}]: ${dated(c.before)} → ${dated(c.after)}${move}`;
}

const heldLine = (h: HeldChange) =>
  `${changeLine(h)}; beyond ±${h.max_change_pct} % for ${h.kind}: not published`;

export const ageKey = (a: Pick<FigureAge, 'record' | 'figure'>) => `${a.record} ${a.figure}`;

/** The importers' own lines naming what could not be read (a ledger, a contract). */
const unreadLines = (outcome: RefreshOutcome) =>
  outcome.sources.flatMap((s) =>
    s.report
      .filter((l) => / NOT READ: |: PROBLEM: |: REVIEW: /.test(l))
      .map((l) => `  ${l.trim()}`),
  );

/** The records whose validation level changed (promoted, or demoted for an editor to review). */
const levelLines = (outcome: RefreshOutcome) =>
  outcome.sources.flatMap((s) =>
    s.report.filter((l) => /: (PROMOTED|DEMOTED) /.test(l)).map((l) => `  ${l.trim()}`),
  );

/**
 * The ledgers the on-ledger importer did not read (no endpoint, not EVM, no chain id), one line
 * each with its count of contracts (the importer's own report names them all).
 */
const ledgersNotRead = (outcome: RefreshOutcome) =>
  outcome.sources.flatMap((s) =>
    s.report
      .filter((l) => l.startsWith('not read, ') && !l.startsWith('not read, kept'))
      .map((l) => `  ${l.replace(/^not read, /, '').replace(/(: \d+ contract\(s\)):.*$/, '$1')}`),
  );

/**
 * Per ledger of every source that reads ledgers: how many of its contracts answered. A ledger
 * where none did says so, so that "unchanged" (read, same values) is never mistaken for unread.
 */
const ledgerLines = (outcome: RefreshOutcome) =>
  outcome.sources.flatMap((s) =>
    s.ledgers.map((l) =>
      l.problem
        ? `  ${l.ledger}: not read (${l.contracts} contract(s)): ${l.problem}`
        : l.read === 0
          ? `  ${l.ledger}: not read: none of ${l.contracts} contract(s) answered`
          : `  ${l.ledger}: read ${l.read} of ${l.contracts} contract(s)`,
    ),
  );

const refusedLine = (r: Refusal) => `  ${r.path} ${r.at} (${r.read}): ${r.reasons.join('; ')}`;

export function summaryLines(outcome: RefreshOutcome, verdict: Verdict): string[] {
  const past = verdict.ages.filter((a) => a.past_max_age);
  const newlyPast = past.filter((a) => !verdict.pastBefore.has(ageKey(a)));
  const unread = unreadLines(outcome);
  const lines = [
    `data:refresh of ${outcome.date}: dataset date ${outcome.previousDatasetDate ?? 'unset'}${!outcome.answered ? ' (kept: no source answered)' : outcome.previousDatasetDate === outcome.date ? '' : ` → ${outcome.date}`}`,
    '',
    'sources:',
    ...outcome.sources.map(
      (s) =>
        `  ${s.label}: ${s.status}${s.reason ? ` (${s.reason})` : ''}${s.files.length ? `: ${s.files.length} file(s)` : ''}${s.held.length ? `; ${s.held.length} figure(s) held for review` : ''}`,
    ),
    '',
    `figures changed: ${outcome.changed.length}`,
    ...outcome.changed.map(changeLine),
  ];
  const ledgers = ledgerLines(outcome);
  if (ledgers.length) lines.push('', 'ledgers:', ...ledgers);
  if (outcome.refused.length)
    lines.push(
      '',
      `kept out (not plausible, or unsafe text): ${outcome.refused.length} read(s), each keeping its previous value; nothing is released until an editor has looked`,
      ...outcome.refused.map(refusedLine),
    );
  if (outcome.held.length)
    lines.push(
      '',
      `held for review (guard): ${outcome.held.length} figure(s), each keeping its previous value (a coin's or asset's own figure keeps its whole file as it was)`,
      ...outcome.held.map(heldLine),
    );
  const levels = levelLines(outcome);
  if (levels.length)
    lines.push(
      '',
      `validation levels changed: ${levels.length} record(s); review each DEMOTED record (its previous evidence is kept in validation.evidence.history or past its maximum age)`,
      ...levels,
    );
  if (unread.length)
    lines.push('', `not read, previous values kept: ${unread.length} line(s)`, ...unread);
  const unset = ledgersNotRead(outcome);
  if (unset.length)
    lines.push('', 'ledgers not read (no endpoint set, or an RPC shape not read yet):', ...unset);
  lines.push(
    '',
    `past maximum age at ${outcome.date}: ${past.length} of ${verdict.ages.length} figures (${newlyPast.length} since the previous dataset date)`,
    ...past.map(
      (a) =>
        `  ${a.record} ${a.figure} [${a.kind}]: ${a.as_of}, ${a.age_days} days (max ${a.max_age_days})${verdict.pastBefore.has(ageKey(a)) ? '' : ' NEW'}; ${a.stale_reason ? 'stale_reason says why' : 'no stale_reason: refresh it or say why'}`,
    ),
    '',
    `data:check: ${verdict.check}`,
    ...(verdict.check === 'passed' || verdict.check === 'not run'
      ? []
      : (verdict.checkOutput ?? '').split('\n').map((l) => `  ${l}`)),
    `release manifest: ${verdict.release ?? 'not cut'}`,
  );
  return lines;
}

/** The summary as a pull request body (Markdown). */
export function summaryMarkdown(outcome: RefreshOutcome, verdict: Verdict): string {
  return [
    `## Data refresh of ${outcome.date}`,
    '',
    'Written by `npm run data:refresh`. Review it as CONTRIBUTING.md "Reviewing a refresh" says: ' +
      'every changed figure against its source, every held change, every figure past its maximum age.',
    '',
    '```text',
    ...summaryLines(outcome, verdict),
    '```',
    '',
  ].join('\n');
}
