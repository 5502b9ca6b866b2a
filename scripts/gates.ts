// The gates of `npm test`, run one after the other with a summary at the end. A failing gate does
// not stop the others (a formatting slip must not hide a failing browser suite); a gate that reads
// another gate's output (the build) is reported as not run when that gate failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface Gate {
  name: string;
  /** The command and its arguments. */
  command: readonly string[];
  /** Gates whose output this one reads. */
  needs?: readonly string[];
  /** The vitest project whose summary (test/reporters/summary.ts) this gate writes. */
  vitest?: string;
}

export type Outcome = 'passed' | 'failed' | 'not run';

export interface GateResult {
  name: string;
  outcome: Outcome;
  /** One summary line. */
  line: string;
}

const npm = (...args: string[]) => ['npm', 'run', '--silent', ...args];

export const GATES: readonly Gate[] = [
  { name: 'lint:format', command: npm('lint:format') },
  { name: 'lint:code', command: npm('lint:code') },
  { name: 'lint:types', command: npm('lint:types') },
  { name: 'schemas', command: npm('schemas', '--', '--check') },
  { name: 'data:check', command: npm('data:check') },
  { name: 'build', command: npm('build') },
  { name: 'lint:openapi', command: npm('lint:openapi'), needs: ['build'] },
  { name: 'test:unit', command: npm('test:unit'), vitest: 'unit' },
  {
    name: 'test:integration',
    command: npm('test:integration'),
    needs: ['build'],
    vitest: 'integration',
  },
  { name: 'test:browser', command: npm('test:browser'), needs: ['build'], vitest: 'browser' },
];

/** Runs every gate (output inherited), returns one result per gate in order. */
export function runGates(gates: readonly Gate[], log = console.log): GateResult[] {
  const results: GateResult[] = [];
  const outcome = (name: string) => results.find((r) => r.name === name)?.outcome;
  for (const gate of gates) {
    const blocked = (gate.needs ?? []).filter(
      (n) => outcome(n) !== undefined && outcome(n) !== 'passed',
    );
    if (blocked.length) {
      results.push({
        name: gate.name,
        outcome: 'not run',
        line: `  not run  ${gate.name} (needs ${blocked.join(', ')}, which did not pass)`,
      });
      continue;
    }
    log(`\n▶ ${gate.name}`);
    const summaryFile = gate.vitest ? vitestSummaryFile(gate.vitest) : undefined;
    if (summaryFile) rmSync(summaryFile, { force: true });
    const t0 = performance.now();
    const [command, ...args] = gate.command;
    const run = spawnSync(command!, args, { stdio: 'inherit' });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const passed = run.status === 0;
    const details = summaryFile ? vitestDetails(summaryFile, passed) : [];
    results.push({
      name: gate.name,
      outcome: passed ? 'passed' : 'failed',
      line: [
        passed
          ? `  passed   ${gate.name} (${seconds} s)`
          : `  FAILED   ${gate.name} (${seconds} s, exit ${run.status ?? run.signal ?? run.error?.message})`,
        ...details,
      ].join('\n'),
    });
  }
  return results;
}

export function summary(results: readonly GateResult[]): string {
  const passed = results.filter((r) => r.outcome === 'passed').length;
  return `npm test: ${passed} of ${results.length} gates passed\n${results.map((r) => r.line).join('\n')}`;
}

function vitestSummaryFile(project: string): string {
  return path.resolve('test-results', `summary-${project}.json`);
}

/** Under a gate's line: its skips per reason, and for a failed gate each failed test and its first error line. */
function vitestDetails(file: string, passed: boolean): string[] {
  if (!existsSync(file))
    return passed ? [] : ['           (no test summary: the run ended before its report)'];
  const summary = JSON.parse(readFileSync(file, 'utf8')) as {
    failed: { test: string; file: string; error: string }[];
    skipped: Record<string, number>;
  };
  const lines = Object.entries(summary.skipped).map(
    ([reason, count]) => `           ${count} skipped: ${reason}`,
  );
  const shown = summary.failed.slice(0, 10);
  for (const f of shown) lines.push(`           ✗ ${f.file} › ${f.test}: ${f.error}`);
  if (summary.failed.length > shown.length)
    lines.push(`           … and ${summary.failed.length - shown.length} more failed`);
  return lines;
}
