// The log destination as a bounded, asynchronous queue. Logging must never stop or kill the
// service (issue #14 item 7):
// - a stalled reader (a paused pipe, a slow log shipper) must not block the event loop: lines
//   are encoded into batches (BATCH_BYTES) written with asynchronous fs.write, one write in flight;
//   when `maxBytes` are already waiting, new batches are dropped and their lines counted;
// - a write error (ENOSPC on a full volume, EPIPE, EIO, EBADF) must not crash the process: the
//   batch is dropped and counted, and the error is reported on stderr (at most once a minute).
// A write that hits EAGAIN (a non-blocking pipe that is full) is retried later, not dropped.
// At exit (a crash included) what is queued is written synchronously, unless a write is stuck.
import { closeSync, openSync, write, writeSync } from 'node:fs';
import { ConfigError } from '../config.ts';

/**
 * Each line is encoded into the current batch buffer as it comes (while the string is still in
 * the CPU's cache, and before a garbage collection has to copy it), and a batch is written when
 * the next line might not fit: one file write per ~128 KB (each write is a thread-pool hand-off),
 * or per a quarter of the queue's bytes when that is less. Keeping the strings and joining them
 * per batch cost 5 % of the server's CPU under load (bench/results/2026-11-23-bench-noise.md).
 */
const BATCH_BYTES = 131_072;
const RETRY_MS = 50;
const REPORT_EVERY_MS = 60_000;
/** A write in flight for longer than this is stuck (stalled reader): exit does not wait for it. */
const STUCK_MS = 1000;

export interface LogWriterStats {
  /** Lines written to the destination. */
  written: number;
  /** Lines dropped: the queue was full, or the destination refused them. */
  dropped: number;
  /** Write errors other than EAGAIN. */
  errors: number;
  /** Bytes waiting to be written. */
  queuedBytes: number;
}

export interface LogWriter {
  write(line: string): void;
  /** Hands the current batch to the queue and calls `done` once the queue is empty or after `timeoutMs`. */
  flush(done: () => void, timeoutMs?: number): void;
  stats(): LogWriterStats;
}

interface Chunk {
  bytes: Buffer;
  lines: number;
}

/** The first `length` bytes in a buffer of their own (not a slice of Node's shared pool). */
function exactCopy(from: Buffer, length: number): Buffer {
  const copy = Buffer.allocUnsafeSlow(length);
  from.copy(copy, 0, 0, length);
  return copy;
}

/** The file descriptor of `destination`: 1 for "stdout", else the file opened for appending. */
function openDestination(destination: string): number {
  if (destination === 'stdout') return 1;
  try {
    return openSync(destination, 'a');
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration:\n  LOG_DESTINATION=${JSON.stringify(destination)}: cannot be opened for appending (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
}

/** The queue of encoded chunks in front of `fd`: bounded at `maxBytes`, one write in flight. */
function chunkQueue(fd: number, destination: string, maxBytes: number) {
  const queue: Chunk[] = [];
  const stats: LogWriterStats = { written: 0, dropped: 0, errors: 0, queuedBytes: 0 };
  let writingSince = 0; // 0: no write in flight
  let lastReport = 0;
  let unreported = 0;
  const waiters: (() => void)[] = [];

  const report = (err: NodeJS.ErrnoException) => {
    unreported++;
    const now = Date.now();
    if (now - lastReport < REPORT_EVERY_MS) return;
    lastReport = now;
    const text = `tai-api: log destination ${destination} failed (${err.code ?? err.message}); ${unreported} write error(s) since the last report, ${stats.dropped} line(s) dropped so far. The service keeps running.\n`;
    unreported = 0;
    // Asynchronous, errors ignored: stderr may be as broken as the destination.
    write(2, text, () => undefined);
  };

  const settle = () => {
    if (queue.length === 0 && writingSince === 0) for (const w of waiters.splice(0)) w();
  };

  const pump = () => {
    if (writingSince !== 0) return;
    const chunk = queue[0];
    if (!chunk) return settle();
    writingSince = Date.now();
    write(fd, chunk.bytes, 0, chunk.bytes.length, null, (err, n) => {
      writingSince = 0;
      if (err) {
        if (err.code === 'EAGAIN') {
          setTimeout(pump, RETRY_MS).unref();
          return;
        }
        stats.errors++;
        stats.dropped += chunk.lines;
        stats.queuedBytes -= chunk.bytes.length;
        queue.shift();
        report(err);
      } else if (n < chunk.bytes.length) {
        stats.queuedBytes -= n;
        chunk.bytes = chunk.bytes.subarray(n); // a partial write: the rest goes next
      } else {
        stats.written += chunk.lines;
        stats.queuedBytes -= n;
        queue.shift();
      }
      pump();
    });
  };

  return {
    stats,
    pump,
    /** Queues `bytes` (`n` lines), unless the queue is full: bounded, the newest lines go. */
    push(bytes: Buffer, n: number): boolean {
      if (stats.queuedBytes + bytes.length > maxBytes) {
        stats.dropped += n;
        return false;
      }
      queue.push({ bytes, lines: n });
      stats.queuedBytes += bytes.length;
      return true;
    },
    /** Calls `waiter` once the queue is empty and no write is in flight (now, if so already). */
    whenIdle(waiter: () => void) {
      waiters.push(waiter);
      settle();
    },
    /** At exit: writes what is queued synchronously, unless a write is stuck; closes a file. */
    writeRestSync() {
      // A stuck write means a stalled reader: a synchronous write would hang the exit.
      if (writingSince !== 0 && Date.now() - writingSince > STUCK_MS) return;
      for (const chunk of queue.splice(writingSince === 0 ? 0 : 1)) {
        try {
          writeSync(fd, chunk.bytes);
        } catch {
          break; // full, closed or would block: nothing more can be done at exit
        }
      }
      if (fd !== 1) closeSync(fd);
    },
  };
}

/** `destination`: "stdout", or a file path opened for appending. */
export function createLogWriter(destination: string, maxBytes: number): LogWriter {
  const queue = chunkQueue(openDestination(destination), destination, maxBytes);
  // Four batches fit in the queue.
  const batchBytes = Math.min(BATCH_BYTES, Math.floor(maxBytes / 4));
  let batch = Buffer.allocUnsafeSlow(batchBytes);
  let used = 0;
  let lines = 0;

  const enqueue = () => {
    if (lines === 0) return;
    // A batch at least half full is handed over whole (a new buffer takes its place); a smaller
    // one (the timer's, a flush's) is copied out and the buffer kept. So queued memory stays
    // within twice the counted bytes: at a trickle of lines behind a stalled reader, a whole
    // buffer per second would otherwise be held for a few hundred counted bytes.
    const whole = used >= batchBytes / 2;
    const bytes = whole ? batch.subarray(0, used) : exactCopy(batch, used);
    if (queue.push(bytes, lines) && whole) batch = Buffer.allocUnsafeSlow(batchBytes);
    used = 0;
    lines = 0;
    queue.pump();
  };

  setInterval(enqueue, 1000).unref();
  process.on('exit', () => {
    enqueue();
    queue.writeRestSync();
  });

  return {
    write(line: string) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit: a line that might not fit closes the batch.
      const most = line.length * 3;
      if (used + most > batchBytes) {
        enqueue();
        if (most > batchBytes) {
          // Longer than a whole batch (a huge error message): it goes on its own.
          queue.push(Buffer.from(line), 1);
          queue.pump();
          return;
        }
      }
      used += batch.write(line, used);
      lines++;
    },
    flush(done, timeoutMs = 2000) {
      enqueue();
      let called = false;
      const once = () => {
        if (called) return;
        called = true;
        clearTimeout(timer);
        done();
      };
      const timer = setTimeout(once, timeoutMs);
      queue.whenIdle(once);
    },
    stats: () => ({ ...queue.stats }),
  };
}
