// The profiles pack: the profile bodies postbuild writes (dist/client/internal/registry-profiles.ndjson) for the
// server: one file with every body's codings, written at build so the server starts without
// compressing anything. Registries up to PACK_FULL_LIMIT keep identity, gzip and brotli; above it
// only gzip is kept (identity is decoded on demand), which keeps 100,000 assets in memory budget.
import { openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { compress, contentTag } from '../lib/compression.ts';
import { lineSpans } from '../lib/lines.ts';

export const PACK_FULL_LIMIT = 20_000;

export interface PackEntry {
  tfin: string;
  tag: string;
  /** [offset, length] of each coding kept, within the blob. */
  identity?: [number, number];
  gzip: [number, number];
  br?: [number, number];
}

/** The lines of the built profiles file (`<TFIN>\t<body>`), as [TFIN, body bytes], in file order. */
export function* profileLines(text: Buffer): Generator<[string, Buffer]> {
  for (const [start, end] of lineSpans(text)) {
    const tab = text.indexOf(9, start);
    yield [text.toString('utf8', start, tab), text.subarray(tab + 1, end)];
  }
}

/** Layout: 4-byte big-endian header length, the JSON header {entries}, then the blob. */
export function packProfiles(ndjson: string, out: string): number {
  const lines = [...profileLines(readFileSync(ndjson))];
  const full = lines.length <= PACK_FULL_LIMIT;
  const parts: Buffer[] = [];
  let offset = 0;
  const put = (b: Buffer): [number, number] => {
    parts.push(b);
    offset += b.length;
    return [offset - b.length, b.length];
  };
  const entries: PackEntry[] = lines.map(([tfin, body]) => {
    const entry: PackEntry = {
      tfin,
      tag: contentTag(body),
      gzip: put(compress(body, 'gzip', 'max')),
    };
    if (full) {
      entry.identity = put(Buffer.from(body));
      entry.br = put(compress(body, 'br', 'max'));
    }
    return entry;
  });
  const header = Buffer.from(JSON.stringify({ entries }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  writeFileSync(out, Buffer.concat([length, header, ...parts]));
  return entries.length;
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
