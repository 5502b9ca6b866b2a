// The SHA-256 of a file read in 1 MB pieces: built exports are too large to hold in memory.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

export function sha256OfFile(file: string): Buffer {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;)
      hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest();
}
