// The local metering journal: counts reach a file on local disk long before they reach the
// database, so neither a crash (kill -9) nor a shutdown while the database is away loses them.
//
// One counter writes *segments*: append-only JSON-lines files of count deltas. Sealing a segment
// (one line carrying the batch id and the last deltas) happens before that batch is sent to the
// database; once the database confirms the batch, the segment is deleted. So a segment on disk is
// exactly one batch that may not have reached the database: at the next start it is replayed
// with its batch id (the database skips an id it already applied: exactly once). An unsealed
// segment (the process died before the next flush) gets a batch id written into it before it is
// replayed, so a crash during the replay cannot count it twice either.
//
// File names carry the writer's pid: a starting process adopts only segments whose writer is
// gone, never those of another live instance sharing the directory.
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { count, segmentLine } from './journal-entries.ts';
import { overCap, type ReplayBound } from './journal-bounds.ts';

export type Delta<K> = [key: K, n: number];

interface Segment {
  file: string;
  handle: Promise<FileHandle>;
}

/** A segment left by a process that is gone: one batch to replay, then delete. */
export interface Orphan<K> {
  file: string;
  id: string;
  entries: { key: K; n: number }[];
}

/** How a replayed key is checked (journal-entries.ts), and bounded (journal-bounds.ts). */
export interface EntryCheck<K> {
  key: z.ZodType<K>;
  bound?: ReplayBound<K>;
}

/** A segment (line undefined) or one of its lines moved aside instead of being replayed. */
export interface Quarantined {
  file: string;
  line?: number | undefined;
  reason: string;
  /** Where it went; null when even moving it failed (it stays claimed, and is not replayed). */
  movedTo: string | null;
  /** Counts held back because they pass the replay bound (the rest of the segment is replayed). */
  excess?: number | undefined;
}

/** A segment holds one flush interval of counts; anything this large was not written by us. */
const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // a previous incarnation with our pid (containers: pid 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class CounterJournal<K> {
  private current: Segment | null = null;
  /** Writes are chained so lines land in the order they were produced. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly dir: string;
  private readonly name: string;
  private readonly onError: (err: Error) => void;

  constructor(dir: string, name: string, onError: (err: Error) => void) {
    this.dir = dir;
    this.name = name;
    this.onError = onError;
    mkdirSync(dir, { recursive: true });
  }

  private segment(): Segment {
    if (this.current) return this.current;
    const file = path.join(this.dir, `${this.name}-${process.pid}-${randomUUID()}.jsonl`);
    this.current = { file, handle: open(file, 'a') };
    // An open failure surfaces (and is reported) on the first write.
    this.current.handle.catch(() => undefined);
    return this.current;
  }

  private write(seg: Segment, line: string, close: boolean): Promise<boolean> {
    const next = this.chain.then(async () => {
      try {
        const fh = await seg.handle;
        await fh.write(line);
        if (close) await fh.close();
        return true;
      } catch (err) {
        this.onError(err as Error);
        return false;
      }
    });
    this.chain = next;
    return next;
  }

  /** Appends deltas to the open segment. */
  append(deltas: Delta<K>[]): Promise<boolean> {
    if (!deltas.length) return Promise.resolve(true);
    return this.write(this.segment(), JSON.stringify({ d: deltas, t: Date.now() }) + '\n', false);
  }

  /**
   * Seals the open segment as batch `id` with its last deltas; resolves once the line is written
   * (the batch may then go to the database) to a handle for `done`, or null when the journal
   * failed (the segment is then removed, so a replay cannot count the batch a second time).
   */
  async seal(id: string, deltas: Delta<K>[]): Promise<string | null> {
    const seg = this.segment();
    this.current = null;
    const ok = await this.write(
      seg,
      JSON.stringify({ seal: id, d: deltas, t: Date.now() }) + '\n',
      true,
    );
    if (ok) return seg.file;
    await unlink(seg.file).catch(() => undefined);
    return null;
  }

  /** The database confirmed the segment's batch. */
  async done(file: string | null): Promise<void> {
    if (file) await unlink(file).catch((err: Error) => this.onError(err));
  }

  /** Closes the open segment (its deltas stay on disk for the next start). */
  async close(): Promise<void> {
    const seg = this.current;
    this.current = null;
    await this.chain;
    if (seg) await (await seg.handle.catch(() => null))?.close().catch(() => undefined);
  }

  /** Deletes a replayed orphan segment. */
  static async discard(file: string): Promise<void> {
    await unlink(file).catch(() => undefined);
  }

  /**
   * Segments of this counter whose writer is gone, parsed into batches. An unsealed one gets its
   * batch id appended first. A torn last line (the writer died mid-write) is skipped. Every other
   * line is checked against what the writer writes (`check`); a line that fails is moved aside
   * into `quarantine/` (the rest of its segment is replayed), a segment that cannot be read is
   * moved there whole, and each is reported, so one bad file never stops the others or the start.
   */
  static adopt<K>(
    dir: string,
    name: string,
    check: EntryCheck<K>,
    onQuarantine: (q: Quarantined) => void = () => undefined,
  ): Orphan<K>[] {
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      return [];
    }
    const orphans: Orphan<K>[] = [];
    for (const f of files.sort()) {
      const m = new RegExp(`^${name}-(\\d+)-[0-9a-f-]+\\.jsonl$`).exec(f);
      if (!m || alive(Number(m[1]))) continue;
      // Claimed by renaming it to our pid (atomic): two instances starting together never both
      // adopt one segment.
      const file = path.join(dir, `${name}-${process.pid}-${randomUUID()}.jsonl`);
      try {
        renameSync(path.join(dir, f), file);
      } catch {
        continue;
      }
      const original = path.join(dir, f);
      const quarantine = (reason: string, line?: number, text?: string) => {
        let movedTo: string | null = null;
        try {
          const qdir = path.join(dir, 'quarantine');
          mkdirSync(qdir, { recursive: true });
          const to = path.join(qdir, line === undefined ? f : `${f}.bad-lines`);
          if (line === undefined) renameSync(file, to);
          else appendFileSync(to, JSON.stringify({ line, reason, text }) + '\n');
          movedTo = to;
        } catch (err) {
          reason += ` (and it could not be moved aside: ${(err as Error).message})`;
        }
        onQuarantine({ file: original, line, reason, movedTo });
      };
      let text: string;
      try {
        if (statSync(file).size > MAX_SEGMENT_BYTES)
          throw new Error(`larger than ${MAX_SEGMENT_BYTES} bytes, more than any segment holds`);
        text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
      } catch (err) {
        quarantine(`unreadable: ${(err as Error).message}`);
        continue;
      }
      const tally = tallySegment(text, check, quarantine);
      const { counts } = tally;
      let id = tally.id;
      if (check.bound) {
        const held = holdBackOverBound(tally, check.bound, dir, f);
        if (held) onQuarantine({ file: original, ...held });
      }
      if (counts.size === 0) {
        unlinkSync(file);
        continue;
      }
      if (!id) {
        id = randomUUID();
        // The leading newline ends a torn line, if any.
        appendFileSync(file, '\n' + JSON.stringify({ seal: id, d: [] }) + '\n');
      }
      orphans.push({ file, id, entries: [...counts.values()] });
    }
    return orphans;
  }
}

/** One segment's counts summed per key, its seal (batch id) if any, and its lines' times. */
interface Tally<K> {
  counts: Map<string, { key: K; n: number }>;
  id: string | null;
  stamps: number[];
  unstamped: number;
}

/**
 * Sums a segment's lines per key; a line that fails its check is quarantined, except a torn
 * last line (the writer died mid-write; its counts were never confirmed), which is skipped.
 */
function tallySegment<K>(
  text: string,
  check: EntryCheck<K>,
  quarantine: (reason: string, line: number, text: string) => void,
): Tally<K> {
  const tally: Tally<K> = { counts: new Map(), id: null, stamps: [], unstamped: 0 };
  const { counts, stamps } = tally;
  const lines = text.split('\n');
  const written = lines.flatMap((line, i) => (line ? [i] : []));
  // A torn line is the last one, or the one before the seal a previous adoption appended.
  const tornAt = new Set(written.slice(-1));
  if (written.length > 1 && ADOPTED_SEAL.test(lines[written.at(-1)!]!)) tornAt.add(written.at(-2)!);
  lines.forEach((line, i) => {
    if (!line) return;
    const parsed = parseLine(line, check);
    if (typeof parsed === 'string') {
      if (parsed !== NOT_JSON || !tornAt.has(i)) quarantine(parsed, i + 1, line);
      return;
    }
    for (const { key, n } of parsed.entries) {
      const k = JSON.stringify(key);
      const e = counts.get(k);
      if (e) e.n += n;
      else counts.set(k, { key, n });
    }
    if (parsed.seal) tally.id = parsed.seal;
    if (parsed.entries.length) {
      if (parsed.t === undefined) tally.unstamped++;
      else stamps.push(parsed.t);
    }
  });
  return tally;
}

/**
 * Takes the counts past the replay bound out of the tally and writes them aside: what to report
 * of them, or null when none was past it.
 */
function holdBackOverBound<K>(
  { counts, stamps, unstamped }: Tally<K>,
  bound: ReplayBound<K>,
  dir: string,
  segment: string,
): { reason: string; movedTo: string | null; excess: number } | null {
  const over = overCap([...counts.values()], stamps, unstamped, bound);
  for (const o of over) {
    const e = counts.get(JSON.stringify(o.key))!;
    e.n -= o.excess;
    if (e.n === 0) counts.delete(JSON.stringify(o.key));
  }
  const excess = over.reduce((n, o) => n + o.excess, 0);
  if (!excess) return null;
  let movedTo: string | null;
  let reason = `${excess} count(s) past the replay bound of ${bound.maxPerSecond} per second over the segment's own time span, per ${bound.groupName}`;
  try {
    movedTo = setAside(dir, segment, over);
  } catch (err) {
    movedTo = null;
    reason += ` (and they could not be written aside: ${(err as Error).message})`;
  }
  return { reason, movedTo, excess };
}

/** Writes the counts past the replay bound to quarantine/<segment>.over-bound; returns its path. */
function setAside<K>(
  dir: string,
  segment: string,
  over: { key: K; excess: number; cap: number }[],
) {
  const qdir = path.join(dir, 'quarantine');
  mkdirSync(qdir, { recursive: true });
  const to = path.join(qdir, `${segment}.over-bound`);
  for (const o of over)
    appendFileSync(to, JSON.stringify({ key: o.key, excess: o.excess, cap: o.cap }) + '\n');
  return to;
}

const NOT_JSON = 'not JSON';
/** The seal adopt() appends to an unsealed segment. */
const ADOPTED_SEAL = /^\{"seal":"[0-9a-f-]+","d":\[\]\}$/;

/** One segment line, checked: its entries and batch id, or why it cannot be replayed. */
function parseLine<K>(
  line: string,
  check: EntryCheck<K>,
): { entries: { key: K; n: number }[]; seal: string | undefined; t: number | undefined } | string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return NOT_JSON;
  }
  const shape = segmentLine.safeParse(json);
  if (!shape.success)
    return `not a journal line: ${z.prettifyError(shape.error).replace(/\n/g, ' ')}`;
  const entries: { key: K; n: number }[] = [];
  for (const [i, [key, n]] of shape.data.d.entries()) {
    const k = check.key.safeParse(key);
    if (!k.success) return `entry ${i}: key ${z.prettifyError(k.error).replace(/\n/g, ' ')}`;
    const c = count.safeParse(n);
    if (!c.success) return `entry ${i}: count ${z.prettifyError(c.error).replace(/\n/g, ' ')}`;
    entries.push({ key: k.data, n: c.data });
  }
  return { entries, seal: shape.data.seal, t: shape.data.t };
}
