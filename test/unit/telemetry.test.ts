import { describe, expect, it } from 'vitest';
import { usageKey } from '../../src/telemetry/journal-entries.ts';
import type { Quarantined } from '../../src/telemetry/journal.ts';
import { BatchedCounter } from '../../src/telemetry/batched-counter.ts';
import {
  BUCKETS,
  GROWTH,
  bucketOf,
  percentiles,
  upperBoundMs,
} from '../../src/telemetry/histogram.ts';

describe('latency histogram', () => {
  it('puts each latency in the bucket whose upper bound is the first at or above it', () => {
    for (const ms of [0.01, 0.05, 0.06, 1, 3.7, 250, 10_000]) {
      const b = bucketOf(ms);
      expect(upperBoundMs(b)).toBeGreaterThanOrEqual(
        Math.min(ms, upperBoundMs(BUCKETS - 1)) - 1e-9,
      );
      if (b > 0) expect(upperBoundMs(b - 1)).toBeLessThan(ms);
    }
    expect(bucketOf(1e9)).toBe(BUCKETS - 1);
  });

  it('reports percentiles within one bucket (25 %) of the exact value, and merges by addition', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 0.2 + i * 0.01);
    const a = new Map<number, number>();
    const b = new Map<number, number>();
    samples.forEach((ms, i) => {
      const m = i % 2 ? a : b;
      m.set(bucketOf(ms), (m.get(bucketOf(ms)) ?? 0) + 1);
    });
    const merged = new Map(a);
    for (const [k, v] of b) merged.set(k, (merged.get(k) ?? 0) + v);
    const { count, values } = percentiles(merged, [50, 99]);
    expect(count).toBe(1000);
    const exact50 = samples[499]!;
    const exact99 = samples[989]!;
    expect(values[0]!).toBeGreaterThanOrEqual(exact50);
    expect(values[0]!).toBeLessThanOrEqual(exact50 * GROWTH + 0.001);
    expect(values[1]!).toBeGreaterThanOrEqual(exact99);
    expect(values[1]!).toBeLessThanOrEqual(exact99 * GROWTH + 0.001);
    expect(percentiles(new Map(), [50])).toEqual({ count: 0, values: [null] });
  });
});

describe('batched counter', () => {
  it('retries a failed batch with the same id, then writes what was counted meanwhile', async () => {
    const c = new BatchedCounter<{ k: string }>((x) => x.k);
    c.add({ k: 'a' });
    c.add({ k: 'a' });
    c.add({ k: 'b' }, 3);
    const failed: string[] = [];
    await expect(
      c.flush(async (b) => (failed.push(b.id), Promise.reject(new Error('db down')))),
    ).rejects.toThrow('db down');
    c.add({ k: 'a' });
    expect(c.size).toBe(3);
    const written: { id: string; counts: Record<string, number> }[] = [];
    await c.flush(
      async (b) =>
        void written.push({
          id: b.id,
          counts: Object.fromEntries(b.entries.map((e) => [e.key.k, e.n])),
        }),
    );
    // The retried batch keeps its id (the database skips it if the lost commit had in fact landed).
    expect(written).toEqual([
      { id: failed[0], counts: { a: 2, b: 3 } },
      { id: expect.any(String), counts: { a: 1 } },
    ]);
    expect(written[1]!.id).not.toBe(failed[0]);
    expect(c.size).toBe(0);
    expect(await c.flush(async () => Promise.reject(new Error('never called')))).toBe(0);
  });
});

describe('batched counter flushes are single-flight (issue #14 item 1)', () => {
  /** A write whose outcome the test decides, in the order it chooses. */
  function controlled() {
    const calls: { id: string; n: number; ok(): void; fail(): void }[] = [];
    const write = (b: { id: string; entries: { n: number }[] }) =>
      new Promise<void>((resolve, reject) =>
        calls.push({
          id: b.id,
          n: b.entries.reduce((s, e) => s + e.n, 0),
          ok: () => resolve(),
          fail: () => reject(new Error('db down')),
        }),
      );
    return { calls, write };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('a shutdown flush overlapping a timer flush waits for it, then writes the rest', async () => {
    const c = new BatchedCounter<{ k: string }>((x) => x.k);
    const { calls, write } = controlled();
    c.add({ k: 'a' }, 2);
    const timer = c.flush(write); // waits on the database with batch X
    await tick();
    c.add({ k: 'a' }, 3); // counted meanwhile (Y)
    const shutdown = c.drain(write);
    await tick();
    // Before the fix the shutdown wrote X a second time, and whichever run finished second
    // cleared the other's batch (or threw on the null it left).
    expect(calls.map((x) => x.n)).toEqual([2]);
    calls[0]!.ok();
    expect(await timer).toBe(1);
    await tick();
    expect(calls.map((x) => x.n)).toEqual([2, 3]);
    calls[1]!.fail(); // Y fails at shutdown: kept (for the retry, or the local journal)
    await expect(shutdown).rejects.toThrow('db down');
    expect(c.pendingCount).toBe(3);
    const retry = c.flush(write);
    await tick();
    expect(calls[2]!.id).toBe(calls[1]!.id);
    calls[2]!.ok();
    expect(await retry).toBe(1);
    expect(c.size).toBe(0);
  });
});

/** Above pid_max: no such process, so its segments are adopted. */
const GONE = 2 ** 22 + 12_345;
const X = JSON.stringify({
  key_id: 'DEMO_KEY',
  day: '2026-03-01',
  endpoint: '/v1/registry/assets',
  status_class: '2xx',
});
const Y = JSON.stringify({
  key_id: '0b7e2f6c-8d3a-4a51-9f0e-2c4b6d8e1a35',
  day: '2026-03-01',
  endpoint: '/v1/market/stablecoins',
  status_class: '4xx',
});
const SEAL = '5d1f4c2a-7b3e-4e89-a0c6-9b2d8f1e3a47';

describe('metering journal', () => {
  it('adopts the segments of writers that are gone, sealing an unsealed one first', async () => {
    const { mkdtempSync, writeFileSync, readdirSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { CounterJournal } = await import('../../src/telemetry/journal.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-journal-'));
    const seg = (pid: number, id: string) =>
      path.join(dir, `usage-${pid}-${id.padEnd(36, '0')}.jsonl`);
    // Sealed: replayed under its id. Unsealed with a torn last line: gets an id, torn line skipped.
    writeFileSync(seg(GONE, 'aaaa'), `{"d":[[${X},2]]}\n{"seal":"${SEAL}","d":[[${X},1]]}\n`);
    writeFileSync(seg(GONE, 'bbbb'), `{"d":[[${Y},4]]}\n{"d":[[${Y},`);
    // A live writer's segment (our parent) is left alone.
    writeFileSync(seg(process.ppid, 'cccc'), `{"d":[[${X},1]]}\n`);
    const quarantined: unknown[] = [];
    const adopt = () =>
      CounterJournal.adopt(dir, 'usage', { key: usageKey }, (q) => quarantined.push(q));
    const orphans = adopt();
    expect(orphans.map((o) => o.entries)).toEqual([
      [{ key: JSON.parse(X), n: 3 }],
      [{ key: JSON.parse(Y), n: 4 }],
    ]);
    expect(orphans[0]!.id).toBe(SEAL);
    // The new id is on disk before any replay: adopting again (after a crash) reuses it, and
    // the torn line before it is still taken for torn, not quarantined.
    expect(readFileSync(orphans[1]!.file, 'utf8')).toContain(`"seal":"${orphans[1]!.id}"`);
    expect(readdirSync(dir).filter((f) => f.includes(`-${process.ppid}-`))).toHaveLength(1);
    expect(quarantined).toEqual([]);
  });

  it('moves aside what the writer could not have written, and replays the rest (issue #25)', async () => {
    const { mkdtempSync, writeFileSync, readdirSync, readFileSync, mkdirSync } =
      await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { CounterJournal } = await import('../../src/telemetry/journal.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-journal-'));
    const seg = (id: string) => path.join(dir, `usage-${GONE}-${id.padEnd(36, '0')}.jsonl`);
    const key = (over: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(X), ...over });
    const bad = [
      `{"d":"not entries"}`,
      `{"d":[[{},1]]}`,
      `{"d":[[${X},-3]]}`,
      `{"d":[[${X},"7"]]}`,
      `{"d":[[${X},1e300]]}`,
      `{"d":[[${X},12.5]]}`,
      `{"d":[[${key({ status_class: '9xx' })},1]]}`,
      `{"d":[[${key({ endpoint: '/v1/unknown' })},1]]}`,
      `{"d":[[${key({ day: '2026-02-30' })},1]]}`,
      `{"d":[[${key({ key_id: '' })},1]]}`,
      `{"d":[[${key({ extra: 1 })},1]]}`,
      `garbage in the middle`,
    ];
    writeFileSync(seg('aaaa'), [`{"d":[[${X},2]]}`, ...bad, `{"d":[[${X},3]]}`, ''].join('\n'));
    // A segment that cannot be read (here: a directory where a file belongs) stops nothing.
    mkdirSync(seg('bbbb'));
    writeFileSync(seg('cccc'), `{"seal":"${SEAL}","d":[[${Y},4]]}\n`);
    const quarantined: Quarantined[] = [];
    const orphans = CounterJournal.adopt(dir, 'usage', { key: usageKey }, (q) =>
      quarantined.push(q),
    );
    expect(orphans.map((o) => o.entries)).toEqual([
      [{ key: JSON.parse(X), n: 5 }],
      [{ key: JSON.parse(Y), n: 4 }],
    ]);
    expect(quarantined.map((q) => [path.basename(q.file), q.line])).toEqual([
      ...bad.map((_, i) => [path.basename(seg('aaaa')), i + 2]),
      [path.basename(seg('bbbb')), undefined],
    ]);
    const moved = readdirSync(path.join(dir, 'quarantine')).sort();
    expect(moved).toEqual([path.basename(seg('aaaa')) + '.bad-lines', path.basename(seg('bbbb'))]);
    const lines = readFileSync(path.join(dir, 'quarantine', moved[0]!), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(bad);
  });

  it('seals each batch on disk before it is written, and deletes it once confirmed', async () => {
    const { mkdtempSync, readdirSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { CounterJournal } = await import('../../src/telemetry/journal.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-journal-'));
    const journal = new CounterJournal<{ k: string }>(dir, 'usage', (e) => {
      throw e;
    });
    const c = new BatchedCounter<{ k: string }>((x) => x.k, { journal, journalEvery: 2 });
    c.add({ k: 'a' });
    c.add({ k: 'a' }); // journaled (every 2 counts)
    c.add({ k: 'b' });
    await c.journalNow();
    let onDisk = '';
    await c.flush(async (b) => {
      const [file] = readdirSync(dir);
      onDisk = readFileSync(path.join(dir, file!), 'utf8');
      expect(onDisk).toContain(`"seal":"${b.id}"`);
    });
    expect(onDisk.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('availability', () => {
  it('is the union of running intervals over the time observed', async () => {
    const { availabilityIn } = await import('../../src/telemetry/status.ts');
    const m = 60_000;
    const intervals: [number, number][] = [
      [0, 30 * m],
      [20 * m, 40 * m],
      [50 * m, 58 * m],
    ];
    // Up 0–40 and 50–60 (the last interval is live: its heartbeat is recent).
    expect(availabilityIn(intervals, 0, -100 * m, 60 * m, 3 * m)).toEqual({
      upMs: 50 * m,
      observedMs: 60 * m,
    });
    expect(availabilityIn([], null, 0, 60 * m, m)).toEqual({ upMs: 0, observedMs: 0 });
  });
});
