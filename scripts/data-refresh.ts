// npm run data:refresh -- [--config FILE] [--date YYYY-MM-DD] [--now ISO] [--summary FILE] [--root DIR]
// The whole refresh in one command: every importer whose source is configured
// (deploy/data-refresh.yaml) runs behind the text rules, the plausibility checks and the guard,
// the dataset date becomes the day of the refresh if a source answered, then data:check, then the
// release manifest is cut; a summary says what changed, what was kept out or held for review, what
// could not be read (per source and per ledger) and what is now past its maximum age (--summary
// also writes it as Markdown, the body of the pull request an editor reviews). --now (or TAI_NOW)
// sets the run's clock, which ledger blocks must be recent by (default: the system clock).
// Exit 0: refreshed and released (or nothing to do). Exit 3: refreshed, but figures are past
// their maximum age and data:check asks an editor for them (changes kept, no manifest). Exit 4:
// reported, not released: reads or texts were kept out as implausible or unsafe (the rest kept,
// no manifest). Exit 5: no configured source could be read: nothing written, the dataset date
// kept, no manifest. Exit 1: the check failed otherwise or a step broke; every file is put back
// as it was (fail closed). Exit 2: bad arguments or configuration.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { loadData } from '../src/authoring/load.ts';
import { allFigures } from '../src/dataset/figures.ts';
import { figureAges } from '../src/dataset/freshness.ts';
import { DEFAULT_CONFIG, readRefreshConfig } from '../src/importers/refresh/config.ts';
import { refresh, restore } from '../src/importers/refresh/run.ts';
import {
  ageKey,
  summaryLines,
  summaryMarkdown,
  type Verdict,
} from '../src/importers/refresh/summary.ts';
import { ImportError } from '../src/importers/shared/errors.ts';

const usage =
  'usage: npm run data:refresh -- [--config FILE] [--date YYYY-MM-DD] [--now ISO-INSTANT] [--summary FILE] [--root DIR] [--timeout MS]';
/** The exit codes README "Refreshing the data" documents. */
const EXIT = { released: 0, broke: 1, usage: 2, aging: 3, reported: 4, nothingRead: 5 } as const;
/**
 * process.exit does not wait for a piped stdout: a long summary (hundreds of reads kept out)
 * would lose its last lines, the outcome among them. Exits once what was written has drained.
 */
async function exitAfterOutput(code: number): Promise<never> {
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
const fail = (message: string, code: number): never => {
  console.error(message);
  process.exit(code);
};

let values;
try {
  ({ values } = parseArgs({
    options: {
      root: { type: 'string', default: process.cwd() },
      config: { type: 'string' },
      date: { type: 'string' },
      now: { type: 'string' },
      summary: { type: 'string' },
      timeout: { type: 'string' },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`, 2);
}
const root = path.resolve(values!.root);
const date = values!.date ?? process.env['TAI_TODAY'] ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
  fail(`--date must be a calendar date (YYYY-MM-DD)\n${usage}`, 2);
const nowText = values!.now ?? process.env['TAI_NOW'];
const nowMs = nowText === undefined ? Date.now() : Date.parse(nowText);
if (!Number.isFinite(nowMs) || !/^\d{4}-\d{2}-\d{2}T/.test(nowText ?? '0000-00-00T'))
  fail(`--now (or TAI_NOW) must be an ISO 8601 instant, e.g. 2026-11-27T06:00:00Z\n${usage}`, 2);
const timeoutMs = values!.timeout === undefined ? undefined : Number(values!.timeout);
if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
  fail(`--timeout must be a whole number of milliseconds\n${usage}`, 2);
let config;
try {
  config = readRefreshConfig(
    path.resolve(values!.config ?? path.join(import.meta.dirname, '..', DEFAULT_CONFIG)),
  );
} catch (error) {
  fail((error as Error).message, 2);
}

const run = promisify(execFile);
/** An npm script of this repository on the refreshed tree, its output kept for the summary. */
async function script(name: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(import.meta.dirname, name), ...args, '--root', root],
      { env: { ...process.env, TAI_TODAY: date }, maxBuffer: 64 * 1024 * 1024 },
    );
    return { ok: true, output: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() };
  }
}

const journal = new Map<string, string | null>();
let outcome;
try {
  outcome = await refresh(
    { root, config: config!, date, env: process.env, timeoutMs, nowMs },
    journal,
  );
} catch (error) {
  restore(root, journal);
  if (error instanceof ImportError) fail(`${error.message}\nNothing was written.`, 1);
  throw error;
}

if (!outcome.answered) {
  // Nothing answered: nothing to check, and nothing that may be released or announced.
  restore(root, journal);
  const lines = summaryLines(outcome, {
    check: 'not run',
    release: null,
    ages: [],
    pastBefore: new Set(),
  });
  console.log(lines.join('\n'));
  console.log('\nNo configured source could be read: nothing was written or released.');
  if (values!.summary)
    writeFileSync(
      values!.summary,
      summaryMarkdown(outcome, {
        check: 'not run',
        release: null,
        ages: [],
        pastBefore: new Set(),
      }),
    );
  await exitAfterOutput(EXIT.nothingRead);
}

const check = await script('data.ts', ['check']);
const loaded = await loadData(root, date);
const maxAge = loaded.codes?.sourcePolicy.max_age_days;
const figures = maxAge ? allFigures(loaded) : [];
const verdict: Verdict = {
  check: check.ok ? 'passed' : 'failed',
  release: null,
  ages: maxAge ? figureAges(figures, date, maxAge) : [],
  pastBefore: new Set(
    maxAge && outcome.previousDatasetDate
      ? figureAges(figures, outcome.previousDatasetDate, maxAge)
          .filter((a) => a.past_max_age)
          .map(ageKey)
      : [],
  ),
};
if (!check.ok) {
  verdict.checkOutput = check.output
    .split('\n')
    .filter((l) => !l.startsWith('data: ['))
    .join('\n');
  const onlyAging =
    loaded.problems.length > 0 &&
    loaded.problems.every(
      (p) => p.rule === 'figure-freshness' && / may be at most /.test(p.message),
    );
  if (onlyAging) verdict.check = 'past maximum age only';
}
// A read or text kept out is for an editor first: the rest is kept for the pull request, but no
// manifest is cut, so no release is announced with a figure still under review.
const reported = outcome.refused.length > 0;
if (verdict.check === 'passed' && !reported) {
  const release = await script('data-release.ts', ['--out', path.join(root, 'data/releases')]);
  // The manifest written, and whether it is signed (data:release signs with RELEASE_SIGNING_KEY_FILE).
  verdict.release = release.ok
    ? release.output
        .split('\n')
        .filter((l) => /^(wrote|removed|signed) |is not signed/.test(l))
        .join('\n  ')
    : null;
  if (!release.ok) {
    verdict.check = 'failed';
    verdict.checkOutput = `data:release failed:\n${release.output}`;
  }
}
if (verdict.check === 'failed') restore(root, journal);

const lines = summaryLines(outcome, verdict);
console.log(lines.join('\n'));
if (verdict.check === 'failed')
  console.log('\nEvery file was put back as it was before the refresh: nothing was written.');
if (values!.summary) writeFileSync(values!.summary, summaryMarkdown(outcome, verdict));
if (reported && verdict.check !== 'failed')
  console.log(
    `\n${outcome.refused.length} read(s) or text(s) kept out: reported, not released (no manifest cut).`,
  );
await exitAfterOutput(
  verdict.check === 'failed'
    ? EXIT.broke
    : reported
      ? EXIT.reported
      : verdict.check === 'passed'
        ? EXIT.released
        : EXIT.aging,
);
