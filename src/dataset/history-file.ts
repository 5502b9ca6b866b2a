// The assets' amount histories for `include=history` on the profile: written at build beside the
// profiles pack (dist/client/internal/registry-histories.ndjson, one "<TFIN>\t<JSON array>" line
// per asset with a history), read by the server on demand. At start only the offsets are kept, so
// the default profiles stay small and the histories cost no heap until asked for.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import type { HistoryPoint } from '../domain/common.ts';
import { lineSpans } from '../lib/lines.ts';
import { readProfiles } from './artifact.ts';

export const HISTORIES_FILE = 'internal/registry-histories.ndjson';

/** Writes the history lines from the built dataset's profiles; returns how many assets have one. */
export function writeHistories(datasetFile: string, out: string): number {
  const fd = openSync(out, 'w');
  let n = 0;
  try {
    for (const p of readProfiles(datasetFile)) {
      const history = p.amount?.history;
      if (!history?.length) continue;
      writeSync(fd, `${p.tfin}\t${JSON.stringify(history)}\n`);
      n++;
    }
  } finally {
    closeSync(fd);
  }
  return n;
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
