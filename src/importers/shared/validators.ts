// The validators of the last import of a URL, read back from the provenance committed with the data
// it wrote, so that `--url` asks the source "changed since?" (a conditional GET) and a source that
// has not changed costs one 304 and writes nothing.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { dataFiles } from '../../dataset/data-files.ts';
import type { PreviousFetch } from './input.ts';

/** The newest Last-Modified recorded for `url` in any provenance block under data/, or null. */
export function storedValidators(root: string, url: string): PreviousFetch | null {
  let newest: string | null = null;
  for (const file of dataFiles(root)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(url)) continue;
    visit(parse(text), (p) => {
      const at = Date.parse(p.last_modified ?? '');
      if (p.source_url === url && !Number.isNaN(at) && (!newest || at > Date.parse(newest)))
        newest = p.last_modified!;
    });
  }
  return newest ? { last_modified: newest } : null;
}

interface Provenance {
  source_url?: string;
  last_modified?: string | null;
}

function visit(value: unknown, fn: (p: Provenance) => void): void {
  if (Array.isArray(value)) value.forEach((v) => visit(v, fn));
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === 'provenance' && v && typeof v === 'object') fn(v as Provenance);
      else visit(v, fn);
    }
}
