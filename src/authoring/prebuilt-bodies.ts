// The emitter: ONE pass over the built dataset (the core and the profiles file, each profile
// parsed once) writes every prebuilt body the service sends or reads: each profile's default body
// (its line, the pack), the list summaries, the amount histories, the registry's CSV and NDJSON
// exports (streamed as the profiles come: no registry size is one string), then the unfiltered
// JSON bodies and the other operations' exports from the core, each checked against its response
// schema as it is written (data:build makes no body). scripts/emit.ts runs it inside its
// `astro build`, once Astro has bundled the site and before it renders the pages (the landing page
// reads the histories), straight into dist/client of the release being built; Astro neither sends
// nor copies a body, and nothing moves one after.
// Every body is made by the same functions that answer on request (src/api), so the bytes are the
// ones the server would compute.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerDataset } from '../api/answers.ts';
import {
  BULK_FORMATS,
  REGISTRY_COLUMNS,
  bulkFile,
  bulkHeader,
  bulkRecord,
  type BulkFormat,
} from '../api/bulk.ts';
import { assetProfileBody } from '../api/bodies.ts';
import { datasetViews } from '../api/dataset-views.ts';
import {
  BULK_ROUTES,
  OPERATIONS_TABLE,
  PER_RECORD_OPERATION,
  PRERENDERED_VIEWS,
  type OperationPath,
} from '../api/operations.ts';
import { buildRegistryQueryIndex, registryPage, selectRows } from '../api/registry-list.ts';
import { serialise } from '../api/bodies.ts';
import type { DatasetCore } from '../dataset/artifact.ts';
import {
  PROFILES_PACK,
  PROFILE_BODIES_FILE,
  REGISTRY_QUERY_FILE,
  SUMMARIES_FILE,
} from '../dataset/built-files.ts';
import { writeRegistryQueryFile } from '../dataset/registry-query-file.ts';
import { HISTORIES_FILE, historiesWriter } from '../dataset/history-file.ts';
import { packWriter } from '../dataset/profile-pack.ts';
import { summariesWriter } from '../dataset/summary-file.ts';
import { assetSummary } from '../dataset/asset-shapes.ts';
import type { AssetProfile } from '../domain/api.ts';
import { fileWriter, type FileWriter } from '../lib/file-writer.ts';
import { BodyCheck } from './validate-output.ts';

/**
 * The export with one line per registry record (`bulk.perRecord` in the operations table):
 * streamed from the profiles in the pass. Every other export is its view's unfiltered answer,
 * made from the core.
 */
function profileExport(): OperationPath {
  if (!PER_RECORD_OPERATION)
    throw new Error(
      'no operation exports one line per registry record (bulk.perRecord in src/api/operations.ts): the bodies pass streams exactly one',
    );
  return PER_RECORD_OPERATION.path as OperationPath;
}

/** The operation whose answer is one profile (its default body is the pack's). */
function profileOperation(): string {
  const op = OPERATIONS_TABLE.list.find((o) => o.kind === 'lookup');
  if (!op) throw new Error('no lookup operation in src/api/operations.ts: whose bodies are these?');
  return op.path;
}

/**
 * Every body under v1/ the emitter writes (as under dist/client): each dataset operation's
 * unfiltered JSON body and each bulk route's export in each format. Nothing else writes one.
 */
export function prebuiltBodyPaths(): string[] {
  return [
    ...PRERENDERED_VIEWS.map((route) => route.slice(1)),
    ...BULK_ROUTES.flatMap((route) => BULK_FORMATS.map((format) => bulkFile(route, format))),
  ];
}

export interface PassResult {
  profiles: number;
  histories: number;
  /** The bodies under v1/ (as under dist/client), in the order written. */
  bodies: string[];
}

/**
 * Writes every prebuilt body of `core` and its `profiles` (in the registry's order, TFIN) into
 * `dir` (dist/client), laid out as served, each file once. A pass that fails removes what it wrote.
 */
export async function writePrebuiltBodies(
  core: DatasetCore,
  profiles: Iterable<AssetProfile>,
  dir: string,
): Promise<PassResult> {
  const streamed = profileExport();
  const lookup = profileOperation();
  // Each body checked against its response schema as it is written (data:build makes none).
  const check = new BodyCheck();
  const written = new Set<string>();
  const at = (rel: string) => {
    const file = path.join(dir, ...rel.split('/'));
    if (written.has(file)) throw new Error(`${rel} is written twice in one pass`);
    written.add(file);
    mkdirSync(path.dirname(file), { recursive: true });
    return file;
  };
  const removeWritten = () => {
    for (const file of written) rmSync(file, { force: true });
  };
  const bodies: string[] = [];
  // The registry's default order (the JSON list's, the exports'): the profiles must come in it.
  const rows = selectRows(core, {});
  const profileLines = fileWriter(at(PROFILE_BODIES_FILE));
  const pack = packWriter(at(PROFILES_PACK.split(path.sep).join('/')), rows.length);
  const summaries = summariesWriter(at(SUMMARIES_FILE));
  const histories = historiesWriter(at(HISTORIES_FILE));
  const exports = new Map<BulkFormat, FileWriter>();
  for (const format of BULK_FORMATS) {
    const rel = bulkFile(streamed, format);
    const writer = fileWriter(at(rel));
    writer.write(bulkHeader(format, REGISTRY_COLUMNS));
    exports.set(format, writer);
    bodies.push(rel);
  }
  // The list's unfiltered JSON body is every record (paging only when asked): streamed too, its
  // summaries between the body's two ends, as the view splices them (operation-views.ts listBody).
  const listRel = streamed.slice(1);
  const list = fileWriter(at(listRel));
  list.write('{"data":[');
  let n = 0;
  try {
    for (const profile of profiles) {
      const row = rows[n];
      if (row?.tfin !== profile.tfin)
        throw new Error(
          `profile ${n} is ${profile.tfin}, the registry index has ${row?.tfin ?? 'no more rows'}: rebuild the dataset`,
        );
      const body = assetProfileBody(core, profile);
      check.body(lookup, profile.tfin, body);
      profileLines.write(`${profile.tfin}\t${body}\n`);
      await pack.add(profile.tfin, Buffer.from(body));
      const summary = assetSummary(profile);
      const json = JSON.stringify(summary);
      check.listRecord(streamed, `${profile.tfin} (list)`, JSON.parse(json));
      summaries.add(json);
      for (const [format, writer] of exports)
        writer.write(bulkRecord(format, REGISTRY_COLUMNS, summary, json));
      histories.add(profile.tfin, profile.amount?.history);
      list.write(n ? `,${json}` : json);
      n++;
    }
    if (n !== rows.length)
      throw new Error(`${n} profiles for ${rows.length} registry rows: rebuild the dataset`);
  } catch (error) {
    // No half-written pass is left open or on disk.
    for (const writer of [profileLines, list, ...exports.values()]) writer.close();
    await pack.abort();
    summaries.close();
    histories.close();
    removeWritten();
    throw error;
  }
  profileLines.close();
  const page = registryPage(core, {});
  if (!page.ok) throw new Error('the unfiltered registry list cannot fail');
  // serialise({ data: [], meta }) is '{"data":[]' then the rest: the rest closes the streamed list.
  const envelope = serialise({ data: [], meta: page.meta });
  check.body(streamed, `${streamed} (with data empty)`, envelope);
  list.write(envelope.slice('{"data":['.length));
  list.close();
  bodies.push(listRel);
  for (const writer of exports.values()) writer.close();
  await pack.close();
  summaries.close();
  const withHistory = histories.close();

  bodies.push(...writeCoreBodies(core, streamed, check, at));
  if (check.problems.length) removeWritten();
  check.assert();
  // The registry's query index, made once here so that no instance makes it at start.
  writeRegistryQueryFile(at(REGISTRY_QUERY_FILE), buildRegistryQueryIndex(core.registry.rows));
  return { profiles: n, histories: withHistory, bodies };
}

/**
 * From the core: each dataset operation's unfiltered JSON body (its answer to no query, checked
 * as written), and the other exports (their views' answers to no query), small at any registry
 * size. `streamed` is the operation the pass streams from the profiles. Returns what it wrote.
 */
function writeCoreBodies(
  core: DatasetCore,
  streamed: OperationPath,
  check: BodyCheck,
  at: (rel: string) => string,
): string[] {
  const bodies: string[] = [];
  const views = datasetViews(core, {
    core,
    summaryOf(tfin) {
      throw new Error(`${tfin}: the registry list is streamed in the pass, not made from the core`);
    },
  });
  for (const route of PRERENDERED_VIEWS) {
    if (route === streamed) continue;
    const answer = answerDataset(
      route,
      { search: '' },
      { core, releases: null, views, releaseViews: () => null },
    );
    if (!answer.ok || !('text' in answer.body))
      throw new Error(`the unfiltered ${route} cannot fail: ${JSON.stringify(answer)}`);
    check.body(route, route, answer.body.text);
    const rel = route.slice(1);
    writeFileSync(at(rel), answer.body.text);
    bodies.push(rel);
  }
  for (const route of BULK_ROUTES) {
    if (route === streamed) continue;
    for (const format of BULK_FORMATS) {
      const result = views.get(route)?.compute({}, format);
      if (!result?.ok) throw new Error(`the unfiltered ${format} of ${route} cannot fail`);
      const rel = bulkFile(route, format);
      writeFileSync(at(rel), result.text);
      bodies.push(rel);
    }
  }
  return bodies;
}
