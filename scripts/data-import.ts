// npm run data:import -- <source> (--file F | --url U) [--previous F] [--write] [--allow-shrink]
// Turns a machine-readable primary source into changes to data/: prints the diff, and writes it
// only with --write. A bad input writes nothing and names the file, row, column and expectation.
// Inputs are capped in size (--max-input-mb); text with control characters or bidi overrides is
// never written; a write that would empty a file or remove most of it needs --allow-shrink.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importers } from '../src/importers/index.ts';
import { applyChanges, plan, renderDiff } from '../src/importers/shared/changes.ts';
import { ImportError } from '../src/importers/shared/errors.ts';
import { fetchInput, readFileInput, type SourceInput } from '../src/importers/shared/input.ts';
import { storedValidators } from '../src/importers/shared/validators.ts';
import { shrinkMessage, shrinks } from '../src/importers/shared/shrink-guard.ts';
import { refuseUnsafeTextIn } from '../src/importers/shared/text-guard.ts';
import { parse } from 'yaml';
import { isCalendarDate } from '../src/lib/calendar-date.ts';

const usage = `usage: npm run data:import -- <source> (--file F | --url U) [--previous F] [--write] [--allow-shrink] [--timeout MS] [--max-input-mb N]
sources: ${Object.keys(importers).join(', ')}`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      file: { type: 'string' },
      url: { type: 'string' },
      previous: { type: 'string' },
      write: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      'allow-shrink': { type: 'boolean', default: false },
      'max-input-mb': { type: 'string' },
      root: { type: 'string', default: process.cwd() },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`, 2);
}
const { positionals, values } = parsed;
const name = positionals[0];
const load = name ? importers[name] : undefined;
if (!load || positionals.length > 1) fail(usage, 2);
if (values.file && values.url) fail(`give --file or --url, not both\n${usage}`, 2);
const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
  fail(`--timeout must be a whole number of milliseconds\n${usage}`, 2);
const maxInputMb =
  values['max-input-mb'] === undefined ? undefined : Number(values['max-input-mb']);
if (maxInputMb !== undefined && !(Number.isInteger(maxInputMb) && maxInputMb > 0))
  fail(`--max-input-mb must be a whole number of MiB\n${usage}`, 2);
const maxBytes = maxInputMb === undefined ? undefined : maxInputMb * 1024 * 1024;
const today = process.env['TAI_TODAY'] ?? new Date().toISOString().slice(0, 10);
if (!isCalendarDate(today))
  fail(`TAI_TODAY must be a calendar date as YYYY-MM-DD, not "${today}"`, 2);

try {
  const importer = await load();
  if (importer.needsInput && !values.file && !values.url)
    fail(`${importer.name} needs --file or --url\n${usage}`, 2);
  let input: SourceInput | null = null;
  if (values.file) input = readFileInput(values.file, maxBytes);
  else if (values.url) {
    const previousFetch = storedValidators(path.resolve(values.root), values.url);
    input = await fetchInput(values.url, {
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(maxBytes ? { maxBytes } : {}),
      ...(previousFetch ? { previous: previousFetch } : {}),
    });
    if (!input) {
      console.log(`${values.url}: not modified since the last import; nothing to do`);
      process.exit(0);
    }
  }
  const previous = values.previous ? readFileInput(values.previous, maxBytes) : null;
  const root = path.resolve(values.root);
  const result = await importer.run({
    root,
    input,
    previous,
    today,
    env: process.env,
  });
  for (const line of result.report) console.log(line);
  const planned = plan(root, result.changes);
  for (const c of planned) if (/\.ya?ml$/.test(c.path)) refuseUnsafeTextIn(parse(c.after), c.path);
  const shrinking = shrinks(planned);
  if (!planned.length) console.log('data/ already matches the source: nothing to change.');
  else if (values.write) {
    if (shrinking.length && !values['allow-shrink'])
      fail(`${shrinkMessage(shrinking)}\nNothing was written.`);
    applyChanges(root, planned);
    console.log(`wrote ${planned.map((c) => c.path).join(', ')}`);
  } else {
    process.stdout.write(renderDiff(planned));
    console.log(`\n${planned.length} file(s) would change; run again with --write to apply.`);
    if (shrinking.length) console.log(`\n${shrinkMessage(shrinking)}`);
  }
} catch (error) {
  if (error instanceof ImportError) fail(`${error.message}\nNothing was written.`);
  throw error;
}
