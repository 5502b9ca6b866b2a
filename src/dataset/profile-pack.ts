// The profiles pack: every profile's default body with its codings, in one file for the server,
// written at build by the bodies pass (src/authoring/prebuilt-bodies.ts) so the server starts
// without compressing anything. Registries up to PACK_FULL_LIMIT keep identity, gzip and brotli; above it
// only gzip is kept (identity is decoded on demand), which keeps 100,000 assets in memory budget.
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { compressAsync, contentTag } from '../lib/compression.ts';
import { fileWriter } from '../lib/file-writer.ts';

export const PACK_FULL_LIMIT = 20_000;

export interface PackEntry {
  tfin: string;
  tag: string;
  /** [offset, length] of each coding kept, within the blob. */
  identity?: [number, number];
  gzip: [number, number];
  br?: [number, number];
}

export interface PackWriter {
  /**
   * Adds one profile's default body (in the order the pack keeps). Its codings are made on the
   * thread pool; the promise (await it) holds the caller back while IN_FLIGHT bodies are pending.
   */
  add(tfin: string, body: Buffer): Promise<void>;
  /** Writes the pack (header, then the bodies) and returns how many it holds. */
  close(): Promise<number>;
  /** Closes and removes what was written (a failed build). */
  abort(): Promise<void>;
}

/** Bodies being compressed at once: enough to keep every core busy, few enough to hold. */
const IN_FLIGHT = 256;

interface Pending {
  tfin: string;
  body: Buffer;
  codings: Promise<[gzip: Buffer, br: Buffer | null]>;
}

/**
 * Layout: 4-byte big-endian header length, the JSON header {entries}, then the blob. The header
 * comes first but is known last: the blob is written to `<out>.blob` as the bodies come, then
 * copied behind the header, so no registry size is ever held in memory beyond its index. `count`
 * (the registry's size, known before the first body) decides which codings are kept.
 */
export function packWriter(out: string, count: number): PackWriter {
  const full = count <= PACK_FULL_LIMIT;
  const blobFile = `${out}.blob`;
  const blob = fileWriter(blobFile);
  const entries: PackEntry[] = [];
  const pending: Pending[] = [];
  const put = (b: Buffer): [number, number] => {
    const at = blob.bytes;
    blob.write(b);
    return [at, b.length];
  };
  /** Writes the oldest pending body, in the order added (the blob's order is the entries'). */
  const writeOldest = async () => {
    const { tfin, body, codings } = pending.shift()!;
    const [gzip, br] = await codings;
    const entry: PackEntry = { tfin, tag: contentTag(body), gzip: put(gzip) };
    if (br) {
      entry.identity = put(body);
      entry.br = put(br);
    }
    entries.push(entry);
  };
  const settle = async () => {
    // A failed compression must not be left unobserved while older ones are awaited.
    await Promise.allSettled(pending.map((p) => p.codings));
    pending.length = 0;
  };
  return {
    async add(tfin, body) {
      const codings = Promise.all([
        compressAsync(body, 'gzip', 'max'),
        full ? compressAsync(body, 'br', 'max') : null,
      ]);
      codings.catch(() => {}); // observed when written
      pending.push({ tfin, body, codings });
      while (pending.length > IN_FLIGHT) await writeOldest();
    },
    async close() {
      while (pending.length) await writeOldest();
      blob.close();
      if (entries.length !== count)
        throw new Error(`the pack was announced ${count} profiles and given ${entries.length}`);
      const header = Buffer.from(JSON.stringify({ entries }));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(header.length);
      const pack = fileWriter(out);
      pack.write(length);
      pack.write(header);
      for (const chunk of fileChunks(blobFile)) pack.write(chunk);
      pack.close();
      rmSync(blobFile);
      return entries.length;
    },
    async abort() {
      await settle();
      blob.close();
      rmSync(blobFile, { force: true });
    },
  };
}

/** A file's bytes, 1 MB at a time (each chunk a buffer of its own). */
function* fileChunks(file: string): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return;
      yield chunk.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** An open pack: the index in memory, the bodies read from the file when asked for. */
export interface Pack {
  entries: PackEntry[];
  /** Every coding of one entry, read with one positioned read. */
  read(entry: PackEntry): { identity?: Buffer; gzip: Buffer; br?: Buffer };
}

/**
 * Opens a pack without loading its bodies: at 100,000 assets they are 250 MB, which the page
 * cache holds better than the heap (it is shared, evictable and not counted against the process).
 * The server keeps recently used bodies itself (prebuilt.ts), so a hot profile costs no read.
 */
export function openPack(file: string): Pack {
  const fd = openSync(file, 'r');
  const readAt = (position: number, length: number): Buffer => {
    // A buffer of its own (not a slice of the shared pool), so a cached body keeps only itself.
    const buffer = Buffer.allocUnsafeSlow(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, position + done);
      if (n === 0) throw new Error(`${file} is truncated: rebuild with \`npm run build\``);
      done += n;
    }
    return buffer;
  };
  const headerLength = readAt(0, 4).readUInt32BE(0);
  const { entries } = JSON.parse(readAt(4, headerLength).toString('utf8')) as {
    entries: PackEntry[];
  };
  const base = 4 + headerLength;
  return {
    entries,
    read(entry) {
      const ranges = [entry.gzip, entry.identity, entry.br].filter((r) => r !== undefined);
      const start = Math.min(...ranges.map((r) => r[0]));
      const end = Math.max(...ranges.map((r) => r[0] + r[1]));
      const span = readAt(base + start, end - start);
      const part = (r: [number, number]) => span.subarray(r[0] - start, r[0] - start + r[1]);
      return {
        gzip: part(entry.gzip),
        ...(entry.identity ? { identity: part(entry.identity) } : {}),
        ...(entry.br ? { br: part(entry.br) } : {}),
      };
    },
  };
}
