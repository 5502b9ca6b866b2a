// The metering journal's replay bound (issue #41 item 4): well-formed lines can still claim more
// than an instance could have answered. Real segment files are written into a directory and
// adopted as a starting server adopts them (CounterJournal.adopt with the usage check the
// recorder uses): per key and day, a segment bills at most MAX_REPLAY_RATE_PER_SECOND over the
// part of that day its own lines span; the excess is moved aside and reported, never billed.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CounterJournal, type Quarantined } from '../../src/telemetry/journal.ts';
import {
  LINE_ALLOWANCE_MS,
  MAX_LINE_COUNT,
  MAX_REPLAY_RATE_PER_SECOND,
  usageKey,
} from '../../src/telemetry/journal-entries.ts';
import type { UsageKey } from '../../src/telemetry/recorder.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** Above pid_max: a writer that is gone. */
const GONE = 2 ** 22 + 4_321;
const KEY = '0b7f3a52-6c1e-4f7a-9a51-3d2c7e8f9a10';
const OTHER = '5d9e2b17-8a3c-4e6f-b1d2-7c4a9e0f3b21';
const DAY = '2026-12-06';
const AT = Date.parse(`${DAY}T12:00:00Z`);

const usage = (over: Partial<UsageKey> = {}): UsageKey => ({
  key_id: KEY,
  day: DAY,
  endpoint: '/v1/registry/asset',
  status_class: '2xx',
  ...over,
});

const CHECK = {
  key: usageKey as z.ZodType<UsageKey>,
  bound: {
    groupName: 'key and day',
    groupOf: (k: UsageKey) => ({ group: `${k.key_id} ${k.day}`, day: k.day }),
    maxPerSecond: MAX_REPLAY_RATE_PER_SECOND,
  },
};

function adoptLines(lines: object[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tai-journal-bound-'));
  dirs.push(dir);
  writeFileSync(
    path.join(dir, `usage-${GONE}-${'a'.repeat(8)}-0000-0000-0000-000000000000.jsonl`),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
  const quarantined: Quarantined[] = [];
  const orphans = CounterJournal.adopt<UsageKey>(dir, 'usage', CHECK, (q) => quarantined.push(q));
  const billed = (key = KEY, day = DAY) =>
    orphans
      .flatMap((o) => o.entries)
      .filter((e) => e.key.key_id === key && e.key.day === day)
      .reduce((n, e) => n + e.n, 0);
  return { dir, orphans, quarantined, billed };
}

describe('a replayed segment bills no more than the instance could have answered', () => {
  it('lines stamped over 10 s bill a key at most the stated rate over those 10 s (and a line each side)', () => {
    // 100 lines, each at the per-line maximum: 100,000,000 requests claimed in 10 s.
    const lines = Array.from({ length: 100 }, (_, i) => ({
      d: [[usage(), MAX_LINE_COUNT]],
      t: AT + i * 100,
    }));
    const { billed, quarantined, dir } = adoptLines(lines);
    const spanMs = 99 * 100 + 2 * LINE_ALLOWANCE_MS;
    const cap = Math.floor((MAX_REPLAY_RATE_PER_SECOND * spanMs) / 1000);
    expect(billed()).toBe(cap);
    expect(quarantined).toEqual([
      expect.objectContaining({
        excess: 100 * MAX_LINE_COUNT - cap,
        reason: expect.stringContaining('past the replay bound of 200000 per second'),
      }),
    ]);
    // The excess is kept aside, per key, with the cap it passed.
    const aside = readdirSync(path.join(dir, 'quarantine')).filter((f) =>
      f.endsWith('.over-bound'),
    );
    expect(aside).toHaveLength(1);
    const rows = readFileSync(path.join(dir, 'quarantine', aside[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([{ key: usage(), excess: 100 * MAX_LINE_COUNT - cap, cap }]);
  });

  it('a day the lines do not span bills nothing; another key keeps its own cap', () => {
    const lines = [
      { d: [[usage(), 10]], t: AT },
      { d: [[usage({ day: '2026-11-01' }), 500]], t: AT + 100 },
      { d: [[usage({ key_id: OTHER }), 25]], t: AT + 200 },
    ];
    const { billed, quarantined } = adoptLines(lines);
    expect(billed()).toBe(10);
    expect(billed(OTHER)).toBe(25);
    expect(billed(KEY, '2026-11-01')).toBe(0);
    expect(quarantined.map((q) => q.excess)).toEqual([500]);
  });

  it('unstamped lines at the per-line maximum (the attack shape) bill one allowance each, not their claim', () => {
    // The attack's shape, smaller: 20,000 well-formed lines of 1,000,000 each without a stamp.
    const lines = Array.from({ length: 20_000 }, () => ({ d: [[usage(), MAX_LINE_COUNT]] }));
    const { billed, quarantined } = adoptLines(lines);
    const cap = (MAX_REPLAY_RATE_PER_SECOND * 20_000 * LINE_ALLOWANCE_MS) / 1000;
    expect(billed()).toBe(Math.min(cap, 86_400 * MAX_REPLAY_RATE_PER_SECOND));
    expect(billed()).toBeLessThan(20_000 * MAX_LINE_COUNT);
    expect(quarantined[0]!.excess).toBe(20_000 * MAX_LINE_COUNT - billed());
  });

  it('a segment the journal itself wrote replays whole, its lines stamped', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-journal-bound-'));
    dirs.push(dir);
    const journal = new CounterJournal<UsageKey>(dir, 'usage', (err) => {
      throw err;
    });
    // Counted today, as the recorder dates them.
    const today = usage({ day: new Date().toISOString().slice(0, 10) });
    await journal.append([[today, 700]]);
    await journal.append([[{ ...today, status_class: '4xx' }, 30]]);
    const file = await journal.seal('1b4e28ba-2fa1-41d2-883f-0016d3cca427', [[today, 300]]);
    const written = readFileSync(file!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written.map((l) => typeof l.t)).toEqual(['number', 'number', 'number']);
    // Adopted as a later process would (the writer's pid is gone).
    const adopted = path.join(
      dir,
      `usage-${GONE}-${'b'.repeat(8)}-0000-0000-0000-000000000000.jsonl`,
    );
    writeFileSync(adopted, readFileSync(file!));
    rmSync(file!);
    const quarantined: Quarantined[] = [];
    const orphans = CounterJournal.adopt<UsageKey>(dir, 'usage', CHECK, (q) => quarantined.push(q));
    expect(quarantined).toEqual([]);
    expect(orphans[0]!.entries.reduce((n, e) => n + e.n, 0)).toBe(1_030);
  });
});
