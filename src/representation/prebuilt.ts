// Loads what the build produced for the datasets: the bytes Astro prerendered for each dataset
// view (with their .br/.gz siblings) and the index of the packed profile bodies, ready for the
// fast path.
import path from 'node:path';
import { readDataset, type DatasetCore } from '../dataset/artifact.ts';
import { registryRuntime, type RegistryRuntime } from '../api/registry-runtime.ts';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import {
  gzipOnly,
  precompute,
  precomputeFile,
  streamedFile,
  type Precomputed,
} from './precomputed.ts';
import { PROFILES_PACK, REGISTRY_QUERY_FILE, SUMMARIES_FILE } from '../dataset/built-files.ts';
import { readRegistryQueryFile } from '../dataset/registry-query-file.ts';
import { useRegistryQueryIndex } from '../api/registry-list.ts';
import { BULK_ROUTES, PRERENDERED_VIEWS } from '../api/operations.ts';
import { openPack } from '../dataset/profile-pack.ts';
import { openSummaries } from '../dataset/summary-file.ts';
import { HISTORIES_FILE, openHistories } from '../dataset/history-file.ts';
import { BULK_FORMATS, MEDIA_TYPES, bulkFile, type BulkFormat } from '../api/bulk.ts';
import { LRUCache } from 'lru-cache';

export interface Prebuilt {
  core: DatasetCore;
  registry: RegistryRuntime;
  /** The default (unfiltered) view of each prerendered dataset endpoint, by path. */
  views: Map<string, Precomputed>;
  /** The unfiltered CSV and NDJSON bodies of each dataset endpoint, by path. */
  bulk: Map<string, Record<BulkFormat, Precomputed>>;
  /** The prebuilt body of an asset, made on first use from the pack (kept in a bounded cache). */
  profile(tfin: string): Precomputed | undefined;
  profileCount: number;
}

/** Profiles whose Precomputed is kept between requests (least recently used out); the rest are read from the pack again. */
const PROFILE_CACHE = 4096;

const JSON_TYPE = 'application/json';
/**
 * Bodies above this size (bulk files and dataset views: the unfiltered registry list is 334 MB at
 * 100,000 assets) are streamed from their files, not held in memory.
 */
export const BULK_IN_MEMORY_BYTES = 8 * 1024 * 1024;
/** The end of a view's file that holds its meta block (and the dataset version in it). */
const VIEW_TAIL_BYTES = 64 * 1024;

/** The last `bytes` of a file. */
function tailOf(file: string, bytes: number): Buffer {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(size, bytes));
    const n = readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * A prerendered view: held in memory, or streamed from its file above `inMemory` bytes. Its
 * dataset version must be the dataset's (a held body: its first one; a streamed one: the last
 * one of its end, where the meta block is written after the records).
 */
function loadView(file: string, inMemory: number, datasetFile: string, expected: string) {
  const streamed = statSync(file).size > inMemory;
  const body = streamed ? streamedFile(file, JSON_TYPE) : precomputeFile(file, JSON_TYPE);
  const text = (streamed ? tailOf(file, VIEW_TAIL_BYTES) : body.bodyFor('identity')).toString();
  const versions = [...text.matchAll(/"dataset_version":"([^"]+)"/g)].map((m) => m[1]);
  const version = streamed ? versions.at(-1) : versions[0];
  if (version !== expected) {
    throw new Error(
      `dist/ was built from dataset ${version} but ${datasetFile} is ${expected}: run \`npm run build\``,
    );
  }
  return body;
}

export function loadPrebuilt(
  distDir: string,
  datasetFile: string,
  options: { bulkInMemoryBytes?: number; viewInMemoryBytes?: number } = {},
): Prebuilt {
  const inMemory = options.bulkInMemoryBytes ?? BULK_IN_MEMORY_BYTES;
  const viewInMemory = options.viewInMemoryBytes ?? BULK_IN_MEMORY_BYTES;
  const client = path.join(distDir, 'client');
  const core = readDataset(datasetFile);
  // The build's query index serves q=, the filters and changed_since= (registry-query.ts).
  useRegistryQueryIndex(
    core.registry.rows,
    readRegistryQueryFile(path.join(client, ...REGISTRY_QUERY_FILE.split('/'))),
  );
  const views = new Map<string, Precomputed>();
  for (const route of PRERENDERED_VIEWS) {
    const file = path.join(client, ...route.slice(1).split('/'));
    views.set(route, loadView(file, viewInMemory, datasetFile, core.dataset_version));
  }
  const bulk = new Map<string, Record<BulkFormat, Precomputed>>();
  for (const route of BULK_ROUTES) {
    const bodies = {} as Record<BulkFormat, Precomputed>;
    for (const format of BULK_FORMATS) {
      const file = path.join(client, ...bulkFile(route, format).split('/'));
      bodies[format] =
        statSync(file).size > inMemory
          ? streamedFile(file, MEDIA_TYPES[format])
          : precomputeFile(file, MEDIA_TYPES[format]);
    }
    bulk.set(route, bodies);
  }
  const pack = openPack(path.join(client, PROFILES_PACK));
  const entries = pack.entries;
  const byTfin = new Map(entries.map((e, i) => [e.tfin, i]));
  const cache = new LRUCache<string, Precomputed>({ max: PROFILE_CACHE });
  const profile = (tfin: string): Precomputed | undefined => {
    const hit = cache.get(tfin);
    if (hit) return hit;
    const i = byTfin.get(tfin);
    if (i === undefined) return undefined;
    const e = entries[i]!;
    const { identity, gzip, br } = pack.read(e);
    const body = identity
      ? precompute(identity, JSON_TYPE, {
          eager: false,
          tag: e.tag,
          precompressed: { gzip, ...(br ? { br } : {}) },
        })
      : gzipOnly(gzip, e.tag, JSON_TYPE);
    cache.set(tfin, body);
    return body;
  };
  const summaries = openSummaries(path.join(client, ...SUMMARIES_FILE.split('/')));
  if (summaries.count !== entries.length)
    throw new Error(`${SUMMARIES_FILE} does not match the profiles pack: run \`npm run build\``);
  const summaryRows = (tfins: readonly string[], prefix?: Buffer, suffix?: Buffer) =>
    summaries.join(
      tfins.map((tfin) => {
        const i = byTfin.get(tfin);
        if (i === undefined) throw new Error(`no summary for ${tfin}`);
        return i;
      }),
      prefix,
      suffix,
    );
  const histories = openHistories(path.join(client, ...HISTORIES_FILE.split('/')));
  const registry = registryRuntime(
    core,
    (tfin) => profile(tfin)?.bodyFor('identity').toString('utf8'),
    byTfin,
    histories.of,
    summaryRows,
  );
  return { core, registry, views, bulk, profile, profileCount: entries.length };
}
