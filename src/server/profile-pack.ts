// The profiles pack: the Astro-authored profile bodies (dist/client/internal/registry-profiles.ndjson) for the
// server: one file with every body's codings, written at build so the server starts without
// compressing anything. Registries up to PACK_FULL_LIMIT keep identity, gzip and brotli; above it
// only gzip is kept (identity is decoded on demand), which keeps 100,000 assets in memory budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { compress, contentTag } from './precomputed.ts';

export const PACK_FULL_LIMIT = 20_000;

export interface PackEntry {
  tfin: string;
  tag: string;
  /** [offset, length] of each coding kept, within the blob. */
  identity?: [number, number];
  gzip: [number, number];
  br?: [number, number];
}

/** Layout: 4-byte big-endian header length, the JSON header {entries}, then the blob. */
export function packProfiles(ndjson: string, out: string): number {
  const text = readFileSync(ndjson);
  const lines: [string, Buffer][] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf(10, start);
    if (end === -1) end = text.length;
    if (end > start) {
      const tab = text.indexOf(9, start);
      lines.push([text.toString('utf8', start, tab), text.subarray(tab + 1, end)]);
    }
    start = end + 1;
  }
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

export function readPack(file: string): { entries: PackEntry[]; blob: Buffer } {
  const bytes = readFileSync(file);
  const length = bytes.readUInt32BE(0);
  const { entries } = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as { entries: PackEntry[] };
  return { entries, blob: bytes.subarray(4 + length) };
}
