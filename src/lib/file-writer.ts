// The one buffered file writer of the build: text and bytes appended in ~64 KB writes, so a
// file of any size is written while it is made (never assembled as one string or buffer), and
// the number of bytes written so far is known (offset tables are built from it).
import { closeSync, openSync, writeSync } from 'node:fs';

const FLUSH_BYTES = 64 * 1024;

export interface FileWriter {
  /** Appends `chunk` (text is written as UTF-8). */
  write(chunk: string | Buffer): void;
  /** Bytes written so far, buffered ones included. */
  readonly bytes: number;
  /** Writes what is buffered and closes the file. */
  close(): void;
}

export function fileWriter(file: string): FileWriter {
  const fd = openSync(file, 'w');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  const flush = () => {
    if (pendingBytes === 0) return;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done);
    pending = [];
    pendingBytes = 0;
  };
  return {
    write(chunk) {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(data);
      pendingBytes += data.length;
      bytes += data.length;
      if (pendingBytes >= FLUSH_BYTES) flush();
    },
    get bytes() {
      return bytes;
    },
    close() {
      try {
        flush();
      } finally {
        closeSync(fd);
      }
    },
  };
}
