// Why a suite may be skipped, written into its name: `describeNeeding('postgres')(name, body)`.
// The note is empty when the requirement is met, else " (skipped: <reason>)"; the summary reporter
// (test/reporters/summary.ts) groups skipped tests by that reason and prints a count per reason.
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

const REQUIREMENTS = {
  postgres: {
    met: () => Boolean(process.env['TEST_DATABASE_URL']),
    reason:
      'TEST_DATABASE_URL is not set (the PostgreSQL tests need a server; docs/testing.md "Running the tests")',
  },
  redis: {
    met: () => Boolean(process.env['TEST_REDIS_URL']),
    reason:
      'TEST_REDIS_URL is not set (the Redis tests need a server; docs/testing.md "Running the tests")',
  },
  nginx: {
    met: () => ['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => existsSync(p)),
    reason: 'nginx is not installed (Debian nginx-light)',
  },
  systemd: {
    met: () => ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].some((p) => existsSync(p)),
    reason: 'systemd-analyze is not installed',
    optionalInCi: true,
  },
} as const;

export type Requirement = keyof typeof REQUIREMENTS;

/** " (skipped: <first unmet requirement's reason>)", or "" when every requirement is met. */
export function skipNote(...needs: Requirement[]): string {
  const unmet = needs.find((n) => !REQUIREMENTS[n].met());
  if (!unmet) return '';
  const requirement: { reason: string; optionalInCi?: boolean } = REQUIREMENTS[unmet];
  // CI installs and starts every server the tests need (.ci/run): there a skip is an error.
  if (process.env['CI'] && !requirement.optionalInCi)
    throw new Error(`CI must not skip: ${requirement.reason}`);
  return ` (skipped: ${requirement.reason})`;
}

/** `describe` that runs only when every requirement is met, its skip reason in its name. */
export function describeNeeding(...needs: Requirement[]) {
  const note = skipNote(...needs);
  return (name: string, body: () => void) => describe.skipIf(note !== '')(name + note, body);
}

/** `it` that runs only when every requirement is met, its skip reason in its name. */
export function itNeeding(...needs: Requirement[]) {
  const note = skipNote(...needs);
  return (name: string, body: () => Promise<void>) => it.skipIf(note !== '')(name + note, body);
}
