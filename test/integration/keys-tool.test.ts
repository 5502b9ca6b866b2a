// Issue #14 item 17: the operators' keys tool checks its input and keeps its JSON clean.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keysTool } from '../helpers/server.ts';

const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-keys-')) };

describe('keys tool input', () => {
  it('refuses control characters, newlines and ANSI escapes in --owner, and over-long owners', async () => {
    for (const owner of [
      'Bank\nk_forged  tai_live_x…  enterprise  active  Evil',
      '\u001b[31mRed\u001b[0m',
      'A\u202eB',
      'x'.repeat(201),
    ]) {
      const out = await keysTool(env, 'create', '--tier', 'institutional', '--owner', owner);
      expect(out.code, JSON.stringify(owner)).toBe(2);
      expect(out.stderr).toMatch(/--owner/);
      expect(out.stderr).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
    }
    const list = await keysTool(env, 'list', '--json');
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('accepts only real calendar dates for --since', async () => {
    for (const since of ['2026-11-1', '2026-02-30', '2026/11/01', 'yesterday']) {
      const out = await keysTool(env, 'usage', '--since', since);
      expect(out.code, since).toBe(2);
      expect(out.stderr).toContain('--since must be a calendar date as YYYY-MM-DD');
    }
    expect((await keysTool(env, 'usage', '--since', '2026-11-01', '--json')).code).toBe(0);
  });

  it('answers an unknown option with a usage error, not a stack trace', async () => {
    const out = await keysTool(env, 'create', '--ownr', 'X');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("Unknown option '--ownr'");
    expect(out.stderr).toContain('usage: npm run -s keys');
    expect(out.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('prints only JSON on stdout with --json (pipeable to jq, also through `npm run -s`)', async () => {
    const created = await keysTool(
      env,
      'create',
      '--tier',
      'enterprise',
      '--owner',
      'Bank A',
      '--json',
    );
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; owner: string };
    expect(key.owner).toBe('Bank A');
    expect(created.stderr).toContain('only time the key is shown');
    // The way the README documents it: npm without its banner.
    const npm = await new Promise<string>((resolve, reject) =>
      execFile(
        'npm',
        ['run', '-s', 'keys', '--', 'list', '--json'],
        { env: { ...process.env, ...env } },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    );
    expect(JSON.parse(npm)).toEqual([expect.objectContaining({ id: key.id, owner: 'Bank A' })]);
  });

  it('prints stored control characters escaped, never raw', async () => {
    // A row written before the check existed (or by hand): the list shows it escaped.
    const { openStore } = await import('../../src/store/open.ts');
    const { readConfig } = await import('../../src/config.ts');
    const store = await openStore(readConfig(env));
    await store.insertKey({
      id: 'k_legacy',
      key_hash: 'x'.repeat(64),
      display_prefix: 'tai_live_legacy',
      tier: 'institutional',
      owner: 'Old\nk_fake  \u001b[2J',
      created_at: 0,
    });
    await store.db.close();
    const list = await keysTool(env, 'list');
    expect(list.stdout).toContain('Old\\x0ak_fake  \\x1b[2J');
    expect(list.stdout).not.toContain('\u001b');
    expect(list.stdout.split('\n').filter((l) => l.includes('k_fake'))).toHaveLength(1);
  });
});
