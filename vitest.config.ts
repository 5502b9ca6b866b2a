import { defineConfig } from 'vitest/config';

// Projects run separately so each gate is runnable alone (npm run test:unit, test:integration...).
export default defineConfig({
  test: {
    // The default output, then the skips per reason and a summary file for npm test's gates.
    reporters: ['default', './test/reporters/summary.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/data/**/*.test.ts'],
          // A loaded 2-core machine: a whole-data load takes seconds, not milliseconds.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/**/*.test.ts',
            'test/store/**/*.test.ts',
            'test/importers/**/*.test.ts',
            // The typed client's tests run it against the real server.
            'clients/typescript/test/**/*.test.ts',
          ],
          // Budgets for a loaded 2-core machine: a test that starts servers waits for them
          // (test/helpers/server.ts), and no outcome may depend on the machine's speed.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // One page and variant per test; budgets for a loaded 2-core machine (harness.ts).
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
