// The summaries file: each asset's list summary as the JSON bytes a registry page serialises for
// its row, written at build beside the profiles pack, so a computed page reads its rows with one
// positioned read each and splices them into the body (no profile is parsed on request, and no
// summary is held in memory). Rows are in the registry's order (the pack's), written by the
// bodies pass (src/authoring/prebuilt-bodies.ts).
import { fstatSync, openSync, readSync } from 'node:fs';
import { fileWriter } from '../lib/file-writer.ts';

export interface SummariesWriter {
  /** Appends the next row (an asset's summary as JSON). */
  add(row: string): void;
  /** Writes the offsets and the count; returns the count. */
  close(): number;
}

/** Layout: the rows back to back, then N+1 float64 LE offsets, then a uint32 LE row count N. */
export function summariesWriter(out: string): SummariesWriter {
  const file = fileWriter(out);
  const offsets: number[] = [0];
  return {
    add(row) {
      file.write(row);
      offsets.push(file.bytes);
    },
    close() {
      const index = Buffer.alloc(offsets.length * 8 + 4);
      offsets.forEach((o, i) => index.writeDoubleLE(o, i * 8));
      index.writeUInt32LE(offsets.length - 1, offsets.length * 8);
      file.write(index);
      file.close();
      return offsets.length - 1;
    },
  };
}

export interface Summaries {
  count: number;
  /** Row i's summary JSON (a buffer of its own). */
  read(i: number): Buffer;
  /**
   * Rows `indices`, comma-separated (a JSON array's contents), read into one buffer; with
   * `prefix` and `suffix` around them, so that a whole page body is one allocation.
   */
  join(indices: readonly number[], prefix?: Buffer, suffix?: Buffer): Buffer;
}

const EMPTY = Buffer.alloc(0);

/** Opens the summaries file: only its offsets (8 bytes a row) are held in memory. */
export function openSummaries(file: string): Summaries {
  const fd = openSync(file, 'r');
  const fill = (buffer: Buffer, at: number, position: number, length: number) => {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, at + done, length - done, position + done);
      if (n === 0) throw new Error(`${file} is truncated: rebuild with \`npm run build\``);
      done += n;
    }
  };
  const readAt = (position: number, length: number): Buffer => {
    const buffer = Buffer.allocUnsafe(length);
    fill(buffer, 0, position, length);
    return buffer;
  };
  const size = fstatSync(fd).size;
  if (size < 12) throw new Error(`${file} is truncated: rebuild with \`npm run build\``);
  const count = readAt(size - 4, 4).readUInt32LE(0);
  const indexBytes = readAt(size - 4 - (count + 1) * 8, (count + 1) * 8);
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i <= count; i++) offsets[i] = indexBytes.readDoubleLE(i * 8);
  const check = (i: number) => {
    if (!(i >= 0 && i < count)) throw new RangeError(`${file} has no row ${i}`);
  };
  return {
    count,
    read(i) {
      check(i);
      const start = offsets[i]!;
      return readAt(start, offsets[i + 1]! - start);
    },
    join(indices, prefix = EMPTY, suffix = EMPTY) {
      let total = prefix.length + suffix.length + Math.max(0, indices.length - 1);
      for (const i of indices) {
        check(i);
        total += offsets[i + 1]! - offsets[i]!;
      }
      const out = Buffer.allocUnsafe(total);
      let at = prefix.copy(out, 0);
      indices.forEach((i, k) => {
        if (k > 0) out[at++] = 44; // ','
        const length = offsets[i + 1]! - offsets[i]!;
        fill(out, at, offsets[i]!, length);
        at += length;
      });
      suffix.copy(out, at);
      return out;
    },
  };
}
