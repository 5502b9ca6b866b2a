// A worker thread of parse-parallel.ts: parses each chunk of files it is sent and posts it back.
import { parentPort } from 'node:worker_threads';
import { parseYamlFile } from './yaml-file.ts';

parentPort!.on(
  'message',
  ({ start, files, root }: { start: number; files: string[]; root: string }) => {
    parentPort!.postMessage({ start, parsed: files.map((f) => parseYamlFile(f, root)) });
  },
);
