// The assets' amount histories for `include=history` on the profile: written at build by the
// bodies pass beside the profiles pack (dist/client/internal/registry-histories.ndjson, one
// "<TFIN>\t<JSON array>" line per asset with a history), read by the server on demand. At start
// only the offsets are kept, so the default profiles stay small and the histories cost no heap
// until asked for.
import { openSync, readFileSync, readSync } from 'node:fs';
import type { HistoryPoint } from '../domain/common.ts';
import { fileWriter } from '../lib/file-writer.ts';
import { lineSpans } from '../lib/lines.ts';

export const HISTORIES_FILE = 'internal/registry-histories.ndjson';

export interface HistoriesWriter {
  /** Appends an asset's line when it has a history. */
  add(tfin: string, history: readonly HistoryPoint[] | undefined): void;
  /** Returns how many assets have a history. */
  close(): number;
}

export function historiesWriter(out: string): HistoriesWriter {
  const file = fileWriter(out);
  let n = 0;
  return {
    add(tfin, history) {
      if (!history?.length) return;
      file.write(`${tfin}\t${JSON.stringify(history)}\n`);
      n++;
    },
    close() {
      file.close();
      return n;
    },
  };
}

export interface Histories {
  /** The amount history of an asset (empty when it has none). */
  of(tfin: string): HistoryPoint[];
  size: number;
}

export function openHistories(file: string): Histories {
  const bytes = readFileSync(file);
  const at = new Map<string, [number, number]>();
  for (const [start, end] of lineSpans(bytes)) {
    const tab = bytes.indexOf(9, start);
    if (tab > start && tab < end)
      at.set(bytes.toString('utf8', start, tab), [tab + 1, end - tab - 1]);
  }
  const fd = openSync(file, 'r');
  return {
    size: at.size,
    of(tfin) {
      const entry = at.get(tfin);
      if (!entry) return [];
      const buffer = Buffer.alloc(entry[1]);
      readSync(fd, buffer, 0, entry[1], entry[0]);
      return JSON.parse(buffer.toString('utf8')) as HistoryPoint[];
    },
  };
}
