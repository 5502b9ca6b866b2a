// A vitest reporter beside the default one: after a run it prints the skipped tests counted per
// reason (the " (skipped: …)" note that test/helpers/skip-note.ts and shared-data.ts put in a
// suite's name, or a ctx.skip(note)), and writes test-results/summary-<projects>.json with each
// failed test's name and first error line, which `npm test` (scripts/gates.ts) prints under a
// failed gate.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export interface RunSummary {
  failed: { test: string; file: string; error: string }[];
  skipped: Record<string, number>;
}

const NOTE = /\(skipped: (.+?)\)(?: > |$)/;

function skipReason(test: TestCase): string {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  return NOTE.exec(test.fullName)?.[1] ?? 'skipped with no stated reason';
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n').find((l) => l.trim() !== '') ?? '(no message)';
}

export function summarise(modules: ReadonlyArray<TestModule>): RunSummary {
  const summary: RunSummary = { failed: [], skipped: {} };
  for (const module of modules) {
    const file = path.relative(process.cwd(), module.moduleId);
    const fileErrors = module.errors();
    for (const error of fileErrors)
      summary.failed.push({ test: '(file)', file, error: firstLine(error.message) });
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'failed')
        summary.failed.push({
          test: test.fullName,
          file,
          error: firstLine(result.errors[0]?.message),
        });
      if (result.state === 'skipped') {
        // A file whose setup failed reports its tests as skipped: they did not run, for that reason.
        const reason = fileErrors.length
          ? `not run: ${file} failed before its tests (${firstLine(fileErrors[0]?.message)})`
          : skipReason(test);
        summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
      }
    }
  }
  return summary;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const summary = summarise(modules);
    const projects = [...new Set(modules.map((m) => m.project.name || 'all'))].sort().join('+');
    const dir = path.resolve('test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `summary-${projects || 'none'}.json`),
      JSON.stringify(summary, null, 2),
    );
    const reasons = Object.entries(summary.skipped).sort((a, b) => b[1] - a[1]);
    const total = reasons.reduce((n, [, c]) => n + c, 0);
    if (total === 0) return;
    console.log(`\n skipped ${total} test(s):`);
    for (const [reason, count] of reasons)
      console.log(`   ${String(count).padStart(4)}  ${reason}`);
  }
}
