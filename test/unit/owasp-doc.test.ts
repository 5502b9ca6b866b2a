// Every row of the OWASP mapping names a test that exists.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const doc = readFileSync('docs/SECURITY-OWASP-API-TOP10.md', 'utf8');
const rows = doc.split('\n').filter((l) => /^\| API\d+:2023/.test(l));

describe('OWASP API Security Top 10 mapping', () => {
  it('covers API1 to API10', () => {
    const risks = new Set(rows.map((r) => /API(\d+):2023/.exec(r)![1]));
    expect([...risks].map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
  it.each(rows.map((r) => [r.split('|')[1]!.trim(), r] as const))(
    '%s names a test that exists',
    (_risk, row) => {
      const m = /`(test\/[^`]+\.test\.ts)` › (.+?)\s*\|\s*$/.exec(row);
      expect(m, row).not.toBeNull();
      const [, file, title] = m!;
      expect(readFileSync(file!, 'utf8')).toContain(`'${title}'`);
    },
  );
});
