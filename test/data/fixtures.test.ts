// Valid and invalid fixtures, each invalid one named for the rule it breaks, with the exact
// messages an editor would read pinned in expected.txt beside it: asset fixtures
// (test/fixtures/assets/invalid/<case>/, the assets alone) and data fixtures
// (test/fixtures/data/<case>/: the real data/ with the case's files laid over it, the lines of its
// insert/<file> put first in the real file's top-level list, and the files in its remove.txt taken
// away), for the stablecoin, venue, FX, MiCA and code-table rules. Every rule in
// src/authoring/rules/index.ts must have one.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadData } from '../../src/authoring/load.ts';
import { formatProblems, sortProblems, type DataProblem } from '../../src/authoring/problems.ts';
import { RULES } from '../../src/authoring/rules/index.ts';
import { RELEASE_DATE } from '../helpers/release-date.ts';

const FIXTURES = path.resolve('test/fixtures/assets');
const TODAY = '2026-11-22';
const FIXTURE_DATASET_DATE = '2025-07-31';
const roots: string[] = [];

/** A throw-away project root with the real code tables and the fixture's asset files. */
function rootWith(fixtureDir: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tai-fixture-'));
  roots.push(root);
  cpSync(path.resolve('data/codes'), path.join(root, 'data/codes'), { recursive: true });
  // The fixtures describe mid-2025: their figures are aged at this date, not the real release's.
  writeFileSync(path.join(root, 'data/release.yaml'), `dataset_date: "${FIXTURE_DATASET_DATE}"\n`);
  for (const f of readdirSync(fixtureDir).filter((n) => n.endsWith('.yaml'))) {
    cpSync(path.join(fixtureDir, f), path.join(root, 'data/assets', f));
  }
  return root;
}

afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

const RULE_OF: Record<string, string> = {
  'amount-source-unknown': 'source-references',
  'bad-date-format': 'asset-schema',
  'bad-isin-check-digit': 'asset-schema',
  'bad-lei-check-digits': 'asset-schema',
  'file-name-differs': 'file-name-matches-id',
  'future-date': 'no-future-dates',
  'launch-year-mismatch': 'tfin-parts',
  'level-unsupported': 'validation-evidence',
  // The level follows the evidence in both directions: lower than it supports is refused too.
  'level-below-evidence': 'validation-evidence',
  // Technical evidence past its method's maximum age (data/codes/source-policy.yaml) counts for nothing.
  'evidence-expired': 'validation-evidence',
  'missing-risk-factor': 'risk-factors-known',
  'misspelled-field': 'asset-schema',
  'null-isin-without-reason': 'asset-schema',
  'security-called-emt': 'mica-status-consistent',
  // A schema error does not hide the named checks' findings in the same file.
  'several-problems': 'risk-factors-known',
  'tfic-class-mismatch': 'tfin-parts',
  'unknown-ledger-code': 'codes-known',
  'unknown-risk-factor-value': 'risk-factors-known',
  'yaml-syntax': 'yaml-syntax',
  'refused-source-domain': 'source-domain-policy',
  'figure-too-old': 'figure-freshness',
  'figure-on-news': 'figure-source-primary',
  'history-out-of-order': 'figure-history-ordered',
  'evidence-missing': 'validation-evidence',
  'ended-without-end-date': 'end-date',
  'tfin-repeated': 'unique-tfin',
  'isin-repeated': 'unique-isin',
  'siblings-disagree': 'siblings-agree',
  'unknown-without-reason': 'unknown-factor-reason',
  'guessed-value': 'no-guessed-value',
  'art-without-register': 'art-has-authorisation',
  'null-reason-states-figure': 'null-reason-no-figure',
  'stale-reason-states-figure': 'stale-reason-no-figure',
};

const DATA_FIXTURES = path.resolve('test/fixtures/data');
const DATA_RULE_OF: Record<string, string> = {
  'stablecoin-named-otherwise': 'stablecoin-file-name',
  'stablecoin-twice': 'stablecoin-unique',
  'stablecoin-unknown-source': 'stablecoin-references',
  'type-without-authorisation': 'stablecoin-authorisation',
  'venue-missing': 'venues-count',
  'venue-lists-unknown-coin': 'venue-rules',
  'fx-rate-unknown-source': 'fx-references',
  'market-total-unknown-source': 'market-totals',
  'stablecoin-future-date': 'no-future-dates',
  'category-missing': 'mica-categories-complete',
  'jurisdiction-twice': 'jurisdictions',
  'member-state-file-missing': 'member-state-files',
  'member-state-counts-off': 'member-state-counts-add-up',
  'member-state-casps-off-register': 'member-state-counts-match-register',
  'transitional-period-missing': 'transitional-periods-complete',
  'ledger-code-twice': 'ledger-codes-unique',
  'ledger-alias-twice': 'ledger-aliases-unique',
  'ledger-chain-id-twice': 'ledger-chain-ids-unique',
  'ledger-chain-id-not-evm': 'ledger-chain-id-evm-only',
  'research-wording': 'no-research-wording',
  'unsafe-text': 'text-safe',
  'register-date-of-sibling': 'register-row-per-token',
  'research-diary': 'no-research-diary',
};

/** Problems and warnings together, in the order data:check prints problems. */
const found = (r: { problems: DataProblem[]; warnings: DataProblem[] }) =>
  sortProblems([...r.problems, ...r.warnings]);

/**
 * The lines of `insert` put right after the first top-level key of `file` (e.g. `ledgers:`), so a
 * case adds entries to a real table and its problems' lines do not move when the table grows.
 */
function insertAfterFirstKey(file: string, insert: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const key = lines.findIndex((l) => /^[a-z_]+:\s*$/.test(l));
  if (key < 0) throw new Error(`${file}: no top-level list to insert into`);
  lines.splice(key + 1, 0, ...insert.replace(/\n$/, '').split('\n'));
  writeFileSync(file, lines.join('\n'));
}

/** A throw-away root with the real data/ (assets aside), the case's files over it, some removed. */
function dataRootWith(caseDir: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tai-data-fixture-'));
  roots.push(root);
  cpSync(path.resolve('data'), path.join(root, 'data'), {
    recursive: true,
    filter: (src) => !src.startsWith(path.resolve('data/assets/')),
  });
  if (existsSync(path.join(caseDir, 'data')))
    cpSync(path.join(caseDir, 'data'), path.join(root, 'data'), { recursive: true });
  const inserts = path.join(caseDir, 'insert');
  if (existsSync(inserts))
    for (const rel of readdirSync(inserts, { recursive: true, encoding: 'utf8' }))
      if (rel.endsWith('.yaml'))
        insertAfterFirstKey(path.join(root, rel), readFileSync(path.join(inserts, rel), 'utf8'));
  const removals = path.join(caseDir, 'remove.txt');
  if (existsSync(removals))
    for (const rel of readFileSync(removals, 'utf8').split('\n').filter(Boolean))
      rmSync(path.join(root, 'data', rel));
  return root;
}

/** The data fixtures are read at the real release's dataset date: the real data are valid then. */
const DATA_TODAY = /dataset_date: "?([\d-]{10})/.exec(
  readFileSync('data/release.yaml', 'utf8'),
)![1]!;

describe('every rule has a fixture', () => {
  it('each rule in src/authoring/rules/index.ts is broken by a fixture', () => {
    const covered = new Set([...Object.values(RULE_OF), ...Object.values(DATA_RULE_OF)]);
    expect(RULES.map((r) => r.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});

// Each case loads and checks the real data files beside its own (~2.4 s on 2 idle cores, 60 coins
// with 575 deployments): the unit project's 5 s default is too short when other suites share the cores.
describe('data fixtures', { timeout: 120_000 }, () => {
  const cases = readdirSync(DATA_FIXTURES).sort();
  it('every case names the rule it breaks', () => {
    expect(cases).toEqual(Object.keys(DATA_RULE_OF).sort());
  });
  it('the real data alone, read the same way, has no problems', async () => {
    const { problems } = await loadData(
      dataRootWith(path.join(tmpdir(), 'no-such-case')),
      DATA_TODAY,
    );
    expect(formatProblems(problems)).toBe(formatProblems([]));
  });
  it.each(cases)('%s', async (name) => {
    const dir = path.join(DATA_FIXTURES, name);
    const problems = found(await loadData(dataRootWith(dir), DATA_TODAY));
    expect(problems.map((p) => p.rule)).toContain(DATA_RULE_OF[name]);
    for (const p of problems) expect(p.fix.length).toBeGreaterThan(10);
    await expect(formatProblems(problems)).toMatchFileSnapshot(path.join(dir, 'expected.txt'));
  });
});

describe('valid fixture', () => {
  it('loads without problems', async () => {
    const result = await loadData(rootWith(path.join(FIXTURES, 'valid')), TODAY);
    expect(formatProblems(result.problems)).toBe(formatProblems([]));
    expect(result.assets).toHaveLength(1);
  });
});

describe('invalid fixtures', () => {
  const cases = readdirSync(path.join(FIXTURES, 'invalid')).sort();
  it('every case names the rule it breaks', () => {
    expect(cases).toEqual(Object.keys(RULE_OF).sort());
  });
  it.each(cases)('%s', async (name) => {
    const dir = path.join(FIXTURES, 'invalid', name);
    const problems = found(await loadData(rootWith(dir), TODAY));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.rule)).toContain(RULE_OF[name]);
    for (const p of problems) {
      expect(p.file).toMatch(/^data\/assets\/TFIN-[A-Z0-9-]+\.yaml$/);
      expect(p.fix.length).toBeGreaterThan(10);
    }
    await expect(formatProblems(problems)).toMatchFileSnapshot(path.join(dir, 'expected.txt'));
  });
});

// Each forced load starts parser threads, which load the parser's modules afresh: ~0.2 s here,
// several times that on a busy CI runner (the whole loop once timed out at the 5 s default there).
describe('parsing on worker threads', { timeout: 120_000 }, () => {
  // Large registries are parsed on worker threads (src/authoring/parse-parallel.ts); forced here on
  // small inputs, the result must be the one the calling thread gets, problems and lines included.
  const parallel = { threads: 2, minFiles: 1 };
  const serial = { threads: 1 };
  it('loads the real data to the same records', async () => {
    const [a, b] = await Promise.all([
      loadData(path.resolve('.'), RELEASE_DATE, parallel),
      loadData(path.resolve('.'), RELEASE_DATE, serial),
    ]);
    expect(a.assets.length).toBeGreaterThan(30);
    expect(a.assets.map((x) => x.record)).toEqual(b.assets.map((x) => x.record));
    expect(a.market?.stablecoins.map((x) => x.record)).toEqual(
      b.market?.stablecoins.map((x) => x.record),
    );
    expect(a.mica?.memberStates.map((x) => x.record)).toEqual(
      b.mica?.memberStates.map((x) => x.record),
    );
    expect(a.problems).toEqual([]);
  });
  it.each(readdirSync(path.join(FIXTURES, 'invalid')).sort())(
    'reports the problems of %s the same way, at the same lines',
    async (name) => {
      const root = rootWith(path.join(FIXTURES, 'invalid', name));
      const a = await loadData(root, TODAY, parallel);
      const b = await loadData(root, TODAY, serial);
      expect(found(a).length).toBeGreaterThan(0);
      expect(formatProblems(found(a))).toBe(formatProblems(found(b)));
    },
  );
});
