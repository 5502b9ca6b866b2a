// The one directory walk: every file under a directory, depth first, in directory order
// (readdir's, which is sorted by name). Directories are followed through symbolic links.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export interface WalkOptions {
  /** Skip a directory, given its path relative to the walked one ('/'-separated). */
  skipDir?: (rel: string) => boolean;
}

export function walkFiles(dir: string, options: WalkOptions = {}): string[] {
  const out: string[] = [];
  const visit = (current: string, rel: string): void => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const relName = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) {
        if (!options.skipDir?.(relName)) visit(full, relName);
      } else out.push(full);
    }
  };
  visit(dir, '');
  return out;
}
