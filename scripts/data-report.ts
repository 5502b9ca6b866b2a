// npm run data:report — coverage, identifier coverage, the age of every figure, sources by kind,
// and the release targets (met or missed). `--json` prints the report as JSON; `--strict` exits 1
// when a target is missed.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataReport, formatReport, ledgerKinds } from '../src/dataset/data-report.ts';
import { loadData } from '../src/authoring/load.ts';
import { allFigures } from '../src/dataset/figures.ts';
import { datasetFreshness } from '../src/dataset/freshness.ts';
import { formatProblems } from '../src/authoring/problems.ts';
import { honestyReport } from '../src/dataset/honesty-report.ts';
import { micaRegistersOf } from '../src/dataset/mica-authorisation.ts';
import { formatVerified, verifiedRecords } from '../src/dataset/verified-report.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: process.cwd() },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
  },
});
const today = process.env['TAI_TODAY'] ?? new Date().toISOString().slice(0, 10);
const loaded = await loadData(path.resolve(values.root), today);
if (!loaded.datasetDate) {
  console.error(formatProblems(loaded.problems));
  process.exit(1);
}
const report = dataReport(
  loaded.assets.map((a) => a.record),
  loaded.market?.stablecoins.map((c) => c.record) ?? [],
  loaded.datasetDate,
  loaded.codes ? ledgerKinds(loaded.codes) : new Map(),
  Infinity,
  loaded.codes
    ? honestyReport(
        loaded.assets.map((a) => a.record),
        loaded.codes,
        micaRegistersOf(loaded.mica),
        loaded.datasetDate,
      )
    : null,
);
const maxAge = loaded.codes?.sourcePolicy.max_age_days;
const freshness = maxAge ? datasetFreshness(allFigures(loaded), loaded.datasetDate, maxAge) : null;
const verified = verifiedRecords(loaded.assets.map((a) => a.record));
console.log(
  values.json ? JSON.stringify({ ...report, freshness, verified }, null, 2) : formatReport(report),
);
if (!values.json) console.log(`\n${formatVerified(verified, loaded.assets.length)}`);
if (!values.json && freshness)
  console.log(
    `\nfreshness: ${freshness.within_max_age_pct ?? 0} % of ${freshness.figures} figures within their maximum age (${freshness.past_max_age} past it)` +
      (freshness.oldest_figure
        ? `; oldest: ${freshness.oldest_figure.record} ${freshness.oldest_figure.figure}, ${freshness.oldest_figure.as_of} (${freshness.oldest_figure.age_days} days)`
        : ''),
  );
if (loaded.problems.length)
  console.error(
    `\n${loaded.problems.length} data problems: records that failed their checks are left out of this report (npm run data:check lists them).`,
  );
const missed = report.targets.filter((t) => !t.met).length;
if (loaded.problems.length || (values.strict && missed)) process.exit(1);
