// Every YAML file of the dataset (data/**/*.yaml, sorted): what the content hash of the dataset
// version and the release manifest cover.
import path from 'node:path';
import { walkFiles } from '../lib/walk.ts';

export function dataFiles(root: string): string[] {
  return walkFiles(path.join(root, 'data'))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}
