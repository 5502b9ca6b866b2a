// npm run data:check — validate data/ and report every problem (file, path, fix).
// npm run data:build — the same, then write build/dataset.json; writes nothing when data is invalid.
// The build's bodies are checked against the published schemas by the emitter, as written.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildDataset, contentHash, writeDataset } from '../src/dataset/artifact.ts';
import { dataFiles } from '../src/dataset/data-files.ts';
import { loadData } from '../src/authoring/load.ts';
import { formatProblems } from '../src/authoring/problems.ts';
import { validateDataset } from '../src/authoring/validate-output.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { root: { type: 'string', default: process.cwd() }, out: { type: 'string' } },
});
const command = positionals[0];
if (command !== 'check' && command !== 'build') {
  console.error('usage: data.ts <check|build> [--root DIR] [--out FILE]');
  process.exit(2);
}
const root = path.resolve(values.root);
const today = process.env['TAI_TODAY'] ?? new Date().toISOString().slice(0, 10);
// Progress on stderr (stdout keeps the one-line result): each phase, with the time so far.
const t0 = performance.now();
const phases = 3;
let phase = 0;
const progress = (text: string) =>
  console.error(
    `data: [${++phase}/${phases}] ${text} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
progress(
  `reading and checking ${dataFiles(root).length} files under ${path.relative(process.cwd(), path.join(root, 'data')) || 'data'}/`,
);
const loaded = await loadData(root, today);
const { codes, assets, problems } = loaded;
const summary = () =>
  `${assets.length} assets, ${loaded.market?.stablecoins.length ?? 0} stablecoins, ${loaded.market?.venues?.record.venues.length ?? 0} venues, ${loaded.mica?.memberStates.length ?? 0} member states`;

if (loaded.warnings.length) {
  const rules = [...new Set(loaded.warnings.map((w) => w.rule))].join(', ');
  console.error(
    `${formatProblems(loaded.warnings)}\nWarnings (${rules}): rules in warning mode; these do not fail the check yet.\n`,
  );
}
if (problems.length || !codes || !loaded.datasetDate) {
  console.error(formatProblems(problems));
  console.error('\nNothing was written. See CONTRIBUTING.md for the record format.');
  process.exit(1);
}

progress(`deriving scores, dominance and readiness for ${summary()}`);
const files = dataFiles(root).map((f) => ({
  name: path.relative(root, f),
  text: readFileSync(f, 'utf8'),
}));
const epoch = process.env['SOURCE_DATE_EPOCH'];
const dataset = buildDataset(
  { ...loaded, codes, datasetDate: loaded.datasetDate },
  contentHash(files),
  epoch ? new Date(Number(epoch) * 1000) : new Date(),
);

// Habit: validate the built output too, against the published schemas. A build does not make the
// bodies here: the emitter (scripts/emit.ts) checks each one as it writes it.
let outputProblems: string[] = [];
if (command === 'check') {
  progress('validating the built dataset against the published schemas');
  outputProblems = validateDataset(dataset);
}
if (outputProblems.length) {
  console.error(
    `The built dataset does not match the published schemas:\n${outputProblems.join('\n')}\nNothing was written.`,
  );
  process.exit(1);
}

if (command === 'check') {
  console.log(`data/ is valid: ${summary()}; dataset ${dataset.dataset_version}.`);
} else {
  const out = path.resolve(values.out ?? path.join(root, 'build', 'dataset.json'));
  mkdirSync(path.dirname(out), { recursive: true });
  progress(`writing ${dataset.assets.length} profiles and the core`);
  writeDataset(dataset, out);
  console.log(
    `wrote ${path.relative(process.cwd(), out)}: ${summary()}; dataset ${dataset.dataset_version}.`,
  );
}
