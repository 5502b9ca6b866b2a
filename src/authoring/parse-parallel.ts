// Parses many YAML files on worker threads. At 100,000 assets, parsing was most of the data build
// (measured: 76 of 125 s in `yaml`'s parseDocument), and each file parses on its own.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseYamlFile, type ParsedYaml } from './yaml-file.ts';

export interface ParseOptions {
  /** Parser threads; 1 parses on the calling thread. Default: the machine's parallelism. */
  threads?: number;
  /** Fewer files than this are parsed on the calling thread: starting a thread costs ~30 ms. */
  minFiles?: number;
}

/** Files sent to a thread at a time: big enough to amortise a message, small enough to balance. */
const CHUNK = 250;

/** The parsed files, in the order given. */
export async function parseYamlFiles(
  files: readonly string[],
  root: string,
  { threads = availableParallelism(), minFiles = 2_000 }: ParseOptions = {},
): Promise<ParsedYaml[]> {
  if (threads < 2 || files.length < Math.max(minFiles, 1))
    return files.map((f) => parseYamlFile(f, root));
  const chunkSize = Math.min(CHUNK, Math.ceil(files.length / threads));
  const results = new Array<ParsedYaml>(files.length);
  let next = 0;
  const workers = Array.from(
    { length: Math.min(threads, Math.ceil(files.length / chunkSize)) },
    () => new Worker(new URL('./parse-worker.ts', import.meta.url)),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= files.length) return resolve();
              const start = next;
              next += chunkSize;
              worker.postMessage({ start, files: files.slice(start, next), root });
            };
            worker.on('message', ({ start, parsed }: { start: number; parsed: ParsedYaml[] }) => {
              parsed.forEach((p, i) => (results[start + i] = p));
              send();
            });
            // A file that cannot be read fails the load, as it does on the calling thread.
            worker.on('error', reject);
            worker.on('exit', (code) =>
              reject(new Error(`a YAML parser thread stopped early (exit code ${code})`)),
            );
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
