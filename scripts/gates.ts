// The gates of `npm test`, run one after the other with a summary at the end. A failing gate does
// not stop the others (a formatting slip must not hide a failing browser suite); a gate that reads
// another gate's output (the build) is reported as not run when that gate failed.
import { spawnSync } from 'node:child_process';

export interface Gate {
  name: string;
  /** The command and its arguments. */
  command: readonly string[];
  /** Gates whose output this one reads. */
  needs?: readonly string[];
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
  { name: 'test:unit', command: npm('test:unit') },
  { name: 'test:integration', command: npm('test:integration'), needs: ['build'] },
  { name: 'test:browser', command: npm('test:browser'), needs: ['build'] },
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
    const t0 = performance.now();
    const [command, ...args] = gate.command;
    const run = spawnSync(command!, args, { stdio: 'inherit' });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const passed = run.status === 0;
    results.push({
      name: gate.name,
      outcome: passed ? 'passed' : 'failed',
      line: passed
        ? `  passed   ${gate.name} (${seconds} s)`
        : `  FAILED   ${gate.name} (${seconds} s, exit ${run.status ?? run.signal ?? run.error?.message})`,
    });
  }
  return results;
}

export function summary(results: readonly GateResult[]): string {
  const passed = results.filter((r) => r.outcome === 'passed').length;
  return `npm test: ${passed} of ${results.length} gates passed\n${results.map((r) => r.line).join('\n')}`;
}
