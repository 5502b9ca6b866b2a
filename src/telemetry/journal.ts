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
  unlinkSync,
} from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

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
    return this.write(this.segment(), JSON.stringify({ d: deltas }) + '\n', false);
  }

  /**
   * Seals the open segment as batch `id` with its last deltas; resolves once the line is written
   * (the batch may then go to the database) to a handle for `done`, or null when the journal
   * failed (the segment is then removed, so a replay cannot count the batch a second time).
   */
  async seal(id: string, deltas: Delta<K>[]): Promise<string | null> {
    const seg = this.segment();
    this.current = null;
    const ok = await this.write(seg, JSON.stringify({ seal: id, d: deltas }) + '\n', true);
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
   * batch id appended first. A torn last line (the writer died mid-write) is skipped.
   */
  static adopt<K>(dir: string, name: string): Orphan<K>[] {
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
      const counts = new Map<string, { key: K; n: number }>();
      let id: string | null = null;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        let parsed: { d?: Delta<K>[]; seal?: string };
        try {
          parsed = JSON.parse(line) as typeof parsed;
        } catch {
          continue;
        }
        for (const [key, n] of parsed.d ?? []) {
          const k = JSON.stringify(key);
          const e = counts.get(k);
          if (e) e.n += n;
          else counts.set(k, { key, n });
        }
        if (parsed.seal) id = parsed.seal;
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
