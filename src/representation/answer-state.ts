// The answers' loaded state (src/api/answers.ts) from what the build produced: the registry
// runtime, the prebuilt bodies with their build-time codings, the computed views (filtered
// exports sliced from the prebuilt ones) and the kept releases.
import path from 'node:path';
import { answerState, type AnswerState } from '../api/answers.ts';
import { datasetViews } from '../api/dataset-views.ts';
import { PER_RECORD_OPERATION } from '../api/operations.ts';
import { openReleases } from '../api/releases.ts';
import { bulkLines } from './bulk-lines.ts';
import { loadPrebuilt, type Prebuilt } from './prebuilt.ts';

export function answerStateOf(
  prebuilt: Prebuilt,
  datasetFile: string,
  /** The status service (src/telemetry/status.ts), when this process runs one. */
  status?: { latest(): string | Promise<string> },
): AnswerState {
  const registryExports = PER_RECORD_OPERATION && prebuilt.bulk.get(PER_RECORD_OPERATION.path);
  const views = datasetViews(
    prebuilt.core,
    prebuilt.registry,
    registryExports && {
      csv: bulkLines(registryExports.csv, 'csv'),
      ndjson: bulkLines(registryExports.ndjson, 'ndjson'),
    },
  );
  const releases = openReleases(path.resolve(datasetFile), prebuilt.core.dataset_version);
  return answerState(prebuilt.registry, releases, {
    views,
    prebuilt: {
      view: (p) => prebuilt.views.get(p),
      bulk: (p, format) => prebuilt.bulk.get(p)?.[format],
      profile: (tfin) => prebuilt.profile(tfin),
    },
    ...(status ? { status: () => status.latest() } : {}),
  });
}

/** Loads the build in `distDir` for `datasetFile` (for Astro's endpoints outside the server's state). */
export function loadAnswerState(distDir: string, datasetFile: string): AnswerState {
  return answerStateOf(loadPrebuilt(path.resolve(distDir), path.resolve(datasetFile)), datasetFile);
}
