// The one reader of line-separated files (NDJSON, "<key>\t<JSON>" lines): the byte span of each
// non-empty line, without copying or decoding the buffer; and a file's lines read in chunks.
import { closeSync, openSync, readSync } from 'node:fs';

/** [start, end) of each non-empty '\n'-separated line of `bytes`; the last may lack its '\n'. */
export function* lineSpans(bytes: Buffer): Generator<[start: number, end: number]> {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    if (end > start) yield [start, end];
    start = end + 1;
  }
}

const CHUNK_BYTES = 1 << 20;

/**
 * The non-empty lines of a file (without their '\n'), as text, read 1 MB at a time: a file of any
 * size is read in constant memory (plus its longest line).
 */
export function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      const bytes = carry.length
        ? Buffer.concat([carry, chunk.subarray(0, n)])
        : chunk.subarray(0, n);
      // Whole lines end at the last '\n'; the rest waits for the next chunk.
      const whole = bytes.lastIndexOf(10) + 1;
      for (const [start, end] of lineSpans(bytes.subarray(0, whole)))
        yield bytes.toString('utf8', start, end);
      carry = Buffer.from(bytes.subarray(whole));
    }
    if (carry.length) yield carry.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
