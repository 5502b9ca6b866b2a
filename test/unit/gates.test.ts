// npm test runs every gate even when one fails, and names each failing one in its summary; a gate
// that reads the build is not run when the build failed.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { GATES, runGates, summary, type Gate } from '../../scripts/gates.ts';

const exit = (code: number): string[] => [process.execPath, '-e', `process.exit(${code})`];

describe('the gates of npm test', () => {
  test('every gate runs after a failure; each failure is named; dependants of a failed gate are not run', () => {
    const gates: Gate[] = [
      { name: 'format', command: exit(1) },
      { name: 'build', command: exit(0) },
      { name: 'unit', command: exit(3) },
      { name: 'browser', command: exit(0), needs: ['build'] },
      { name: 'openapi', command: exit(0), needs: ['unit'] },
    ];
    const results = runGates(gates, () => {});
    expect(results.map((r) => [r.name, r.outcome])).toEqual([
      ['format', 'failed'],
      ['build', 'passed'],
      ['unit', 'failed'],
      ['browser', 'passed'],
      ['openapi', 'not run'],
    ]);
    const text = summary(results);
    expect(text.split('\n')[0]).toBe('npm test: 2 of 5 gates passed');
    expect(text).toMatch(/FAILED {3}format \(\d+\.\d s, exit 1\)/);
    expect(text).toMatch(/FAILED {3}unit \(\d+\.\d s, exit 3\)/);
    expect(text).toContain('not run  openapi (needs unit, which did not pass)');
  });

  test('npm test runs the gate runner, and the gates are every check the project has', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.scripts.test).toBe('node scripts/test-all.ts');
    const scripts = GATES.map((g) => g.command[3]);
    for (const name of [
      'lint:format',
      'lint:code',
      'lint:types',
      'schemas',
      'data:check',
      'build',
      'lint:openapi',
      'test:unit',
      'test:integration',
      'test:browser',
    ])
      expect(scripts).toContain(name);
  });
});
