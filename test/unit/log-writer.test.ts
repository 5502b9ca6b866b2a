// The log writer encodes each line into the current batch buffer as it comes: every line must
// reach the destination whole, in order, in UTF-8, across batch boundaries, and a line longer than
// a batch must go on its own.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogWriter } from '../../src/server/log-writer.ts';

const flushed = (writer: ReturnType<typeof createLogWriter>) =>
  new Promise<void>((resolve) => writer.flush(resolve));

describe('log writer', () => {
  it('writes every line whole and in order across batch boundaries, multi-byte text included', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tai-logw-')), 'out.log');
    // The smallest queue (64 KB) makes 16 KB batches: 3,000 lines of ~60 bytes cross ten of them,
    // written 500 at a time (~30 KB) with a flush between, so the bounded queue never drops any.
    const writer = createLogWriter(file, 65_536);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // Two- and three-byte characters and a surrogate pair (four bytes) in every line.
      const line = `{"n":${i},"path":"/v1/é/€/${'x'.repeat(i % 17)}/😀"}\n`;
      lines.push(line);
      writer.write(line);
      if (i % 500 === 499) await flushed(writer);
    }
    await flushed(writer);
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    expect(writer.stats()).toMatchObject({ written: 3000, dropped: 0, errors: 0, queuedBytes: 0 });
  });

  it('sends a line longer than a batch on its own, between its neighbours', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tai-logw-')), 'out.log');
    const writer = createLogWriter(file, 65_536);
    const long = `{"message":"${'€'.repeat(10_000)}"}\n`; // 30 KB: more than a 16 KB batch
    writer.write('first\n');
    writer.write(long);
    writer.write('last\n');
    await flushed(writer);
    expect(readFileSync(file, 'utf8')).toBe(`first\n${long}last\n`);
    expect(writer.stats().written).toBe(3);
  });

  it('drops whole batches, and counts their lines, when the queue is full', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tai-logw-')), 'out.log');
    const writer = createLogWriter(file, 65_536);
    // 200 KB in one turn of the event loop: no write can finish, so the 64 KB queue fills.
    const line = `${'y'.repeat(99)}\n`;
    for (let i = 0; i < 2000; i++) writer.write(line);
    await flushed(writer);
    const { written, dropped } = writer.stats();
    expect(dropped).toBeGreaterThan(0);
    expect(written + dropped).toBe(2000);
    expect(readFileSync(file, 'utf8')).toBe(line.repeat(written));
  });

  it('holds a small batch queued behind a stalled reader in a buffer of its own size', async () => {
    // A FIFO whose reader never reads: once the pipe is full the write in flight waits, and every
    // later batch stays queued.
    const fifo = path.join(mkdtempSync(path.join(tmpdir(), 'tai-logw-')), 'stalled');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = createLogWriter(fifo, 4_194_304);
    try {
      for (let i = 0; i < 2000; i++) writer.write(`${'z'.repeat(99)}\n`); // 200 KB: the pipe fills
      writer.flush(() => undefined, 10);
      await new Promise((r) => setTimeout(r, 50));
      const before = process.memoryUsage().arrayBuffers;
      // A trickle: 2,000 batches of one 100-byte line (as the one-second timer makes them).
      for (let i = 0; i < 2000; i++) {
        writer.write(`${'w'.repeat(99)}\n`);
        writer.flush(() => undefined, 10);
      }
      const grown = process.memoryUsage().arrayBuffers - before;
      expect(writer.stats().dropped).toBe(0);
      // 200 KB counted; a whole 128 KB batch buffer each would hold 256 MB.
      expect(grown).toBeLessThan(8 * 1024 * 1024);
    } finally {
      closeSync(reader); // the stuck write fails (EPIPE) and the writer lets go
    }
  });
});
