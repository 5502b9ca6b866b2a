// One answer per operation: the authority for what each of the five operations sends. Pure
// request-time code: input is the parsed request (its query and its Accept header) and the
// loaded state (the registry, the kept releases, the prebuilt bodies, the status snapshot);
// output is an Answer — a problem, or a body with its caching facts. Answers are keyed by
// operationId; where each is served comes from the operations table. The server's fast path
// and the Astro endpoints (src/pages/v1) both call these; how an Answer becomes bytes on the
// wire (coding, ETag, 304, HEAD) is src/representation/representation.ts.
import type { DatasetCore } from '../dataset/artifact.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { MEDIA_TYPES, type BulkFormat, type Format } from './bulk.ts';
import { datasetViews, readView, type DatasetView } from './dataset-views.ts';
import { answerLookup as resolveAnswerLookup } from './lookup-answer.ts';
import {
  acceptable,
  DATASET_TYPES,
  JSON_TYPES,
  negotiateFormat,
  notAcceptable,
} from './negotiate.ts';
import {
  OPERATIONS_TABLE,
  type Operation,
  type OperationId,
  type OperationPath,
  type OperationsTable,
} from './operations.ts';
import { readParams, type ParamProblem } from './params.ts';
import type { RegistryRuntime } from './registry-runtime.ts';
import { unknownVersionProblem, type ReleaseFacts, type Releases } from './releases.ts';

// Keyed data: browsers may cache it; shared caches must not (they would skip our key check).
export const DATA_CACHE = 'private, max-age=60, stale-while-revalidate=300';
/** An answer for a named dataset_version never changes. */
export const IMMUTABLE_CACHE = 'private, max-age=31536000, immutable';
/** Live figures: revalidate every time. */
export const STATUS_CACHE = 'private, no-cache';
/** The dataset operations' answers depend on Accept (CSV, NDJSON) as well as Accept-Encoding. */
export const VARY_ACCEPT = 'Accept, Accept-Encoding';
export const VARY_CODING = 'Accept-Encoding';

export type Coding = 'br' | 'gzip' | 'identity';

/**
 * A body with its codings (written at build, or made on first use; the server's Precomputed):
 * its content tag, the codings it can be sent in, and the bytes (or the file) of each.
 */
export interface PreparedBody {
  contentType: string;
  /** Content hash shared by all codings; the ETag of each coding adds a suffix. */
  tag: string;
  /** Codings this body can be sent in (identity always; compressed ones made or kept as needed). */
  codings: readonly Coding[];
  bodyFor(coding: Coding): Buffer;
  etagFor(coding: Coding): string;
  /** Set for bodies too large to hold: the file each coding is streamed from. */
  fileFor?(coding: Coding): { path: string; size: number };
}

/** A body made for the request: compressed on demand (fast settings), tagged by its content. */
export interface ComputedBody {
  text: string | Buffer;
  contentType: string;
}

export type Answer =
  | {
      ok: true;
      body: PreparedBody | ComputedBody;
      cacheControl: string;
      vary: string;
      /** The same request target always gets this answer (the server may remember it). */
      fixed: boolean;
      /**
       * The media types the representation was chosen among: a request for the same target whose
       * Accept admits none of them gets 406. Absent when the target itself names the format.
       */
      accepts?: readonly string[];
      /** Set when the answer comes from an older release (`dataset_version=`): it names that one. */
      release?: ReleaseFacts;
    }
  | { ok: false; problem: ParamProblem; fixed: boolean };

/** The parsed request: the query (`?a=b` or `a=b`) and, for the datasets, the Accept header. */
export interface AnswerRequest {
  search: string;
  accept?: string | null | undefined;
}

/** What the server loaded at start (or Astro, outside it). */
export interface AnswerState {
  core: DatasetCore;
  registry: RegistryRuntime;
  releases: Releases | null;
  /** The computed views of the current release, by path. */
  views: Map<string, DatasetView>;
  /** The computed views of a kept older release (made on first use). */
  releaseViews(version: string): Map<string, DatasetView> | null;
  /** The bodies written at build; without them the same bodies are computed. */
  prebuilt?: {
    view(path: string): PreparedBody | undefined;
    bulk(path: string, format: BulkFormat): PreparedBody | undefined;
    profile(tfin: string): PreparedBody | undefined;
  };
  /** The status snapshot (JSON text), at once when one exists; absent outside the service. */
  status?: () => string | Promise<string>;
}

/** What the dataset answers read (the build prerenders them with no registry runtime). */
export type DatasetState = Pick<
  AnswerState,
  'core' | 'releases' | 'views' | 'releaseViews' | 'prebuilt'
>;

/** The state from the registry and releases alone (views made here; older releases one at a time). */
export function answerState(
  registry: RegistryRuntime,
  releases: Releases | null,
  options: Pick<AnswerState, 'prebuilt' | 'status'> & { views?: Map<string, DatasetView> } = {},
): AnswerState {
  const kept = new BoundedMap<string, Map<string, DatasetView>>(1);
  return {
    core: registry.core,
    registry,
    releases,
    views: options.views ?? datasetViews(registry.core, registry),
    releaseViews(version) {
      const release = releases?.get(version);
      if (!release) return null;
      let views = kept.get(version);
      if (!views) kept.set(version, (views = datasetViews(release.core, release.source)));
      return views;
    },
    ...(options.prebuilt ? { prebuilt: options.prebuilt } : {}),
    ...(options.status ? { status: options.status } : {}),
  };
}

const problem = (p: ParamProblem, fixed = false): Answer => ({ ok: false, problem: p, fixed });
const unfiltered = (search: string) => search === '' || search === '?';

/** A prerendered dataset: the prebuilt bytes without a query, a computed view with one. */
export function answerDataset(path: string, request: AnswerRequest, state: DatasetState): Answer {
  const view = state.views.get(path);
  if (!view) throw new Error(`${path} is not a dataset operation`);
  const data = (
    body: PreparedBody | ComputedBody,
    fixed: boolean,
    cacheControl = DATA_CACHE,
    accepts: readonly string[] | undefined = DATASET_TYPES,
    release?: ReleaseFacts,
  ) =>
    ({
      ok: true,
      body,
      cacheControl,
      vary: VARY_ACCEPT,
      fixed,
      ...(accepts ? { accepts } : {}),
      ...(release ? { release } : {}),
    }) satisfies Answer;
  const computed = (
    values: Record<string, string>,
    format: Format,
  ): ParamProblem | ComputedBody => {
    const result = view.compute(values, format);
    return result.ok ? { text: result.text, contentType: MEDIA_TYPES[format] } : result.problem;
  };
  const prebuiltOf = (format: Format) =>
    format === 'json' ? state.prebuilt?.view(path) : state.prebuilt?.bulk(path, format);
  // An Accept that admits none of JSON, CSV and NDJSON gets 406 (unless format= names one).
  const refused = !acceptable(request.accept, DATASET_TYPES);
  if (unfiltered(request.search)) {
    if (refused) return problem(notAcceptable(request.accept!, DATASET_TYPES));
    const format = negotiateFormat(request.accept);
    const body = prebuiltOf(format) ?? computed({}, format);
    if ('code' in body) return problem(body);
    // The target is fixed; its representation still depends on Accept (Vary).
    return data(body, true);
  }
  const query = readView(view, request.search);
  if (!query.ok) return problem(query.problem);
  // dataset_version: the current release (immutable caching) or a kept older one.
  const version = query.values['dataset_version'];
  let active = view;
  let release: ReleaseFacts | undefined;
  if (version && version !== state.core.dataset_version) {
    const old = state.releaseViews(version);
    if (!old || !state.releases) {
      return problem(
        state.releases
          ? unknownVersionProblem(version, state.releases)
          : {
              code: 'dataset_version_not_found',
              detail: `The dataset version ${version} is not kept by this deployment. Available: ${state.core.dataset_version}.`,
              extensions: { allowed: [state.core.dataset_version] },
            },
      );
    }
    active = old.get(path)!;
    release = state.releases.get(version)?.facts;
  }
  const given = query.values['format'] as Format | undefined;
  if (!given && refused) return problem(notAcceptable(request.accept!, DATASET_TYPES));
  const format = given ?? negotiateFormat(request.accept);
  // `format=csv` alone is the prebuilt bulk body (the URL names it).
  if (format !== 'json' && query.key === `format=${format}` && !release) {
    const body = prebuiltOf(format);
    if (body) return data(body, true, DATA_CACHE, undefined);
  }
  const result = active.compute(query.values, format);
  if (!result.ok) return problem(result.problem);
  return data(
    { text: result.text, contentType: MEDIA_TYPES[format] },
    false,
    version ? IMMUTABLE_CACHE : DATA_CACHE,
    given ? undefined : DATASET_TYPES,
    release,
  );
}

/**
 * A lookup: a TFIN without include= is the packed body; another selector, include=history or an
 * older release is made for the target; misses and bad input are problems (with suggestions).
 */
export function answerRegistryAsset(request: AnswerRequest, state: AnswerState): Answer {
  if (!acceptable(request.accept, JSON_TYPES))
    return problem(notAcceptable(request.accept!, JSON_TYPES));
  const lookup = resolveAnswerLookup(
    new URLSearchParams(request.search),
    state.registry,
    state.releases,
  );
  if (!lookup.ok) return problem(lookup.problem, true);
  const cacheControl = lookup.immutable ? IMMUTABLE_CACHE : DATA_CACHE;
  const body: PreparedBody | ComputedBody =
    lookup.body !== undefined
      ? { text: lookup.body, contentType: MEDIA_TYPES.json }
      : (state.prebuilt?.profile(lookup.tfin) ?? {
          text: state.registry.bodyOf(lookup.tfin)!,
          contentType: MEDIA_TYPES.json,
        });
  return {
    ok: true,
    body,
    cacheControl,
    vary: VARY_CODING,
    fixed: true,
    accepts: JSON_TYPES,
    ...(lookup.release ? { release: lookup.release } : {}),
  };
}

/** The live status: the snapshot the status service made (at most once a second). */
export function answerSystemStatus(
  request: AnswerRequest,
  state: AnswerState,
): Answer | Promise<Answer> {
  if (!acceptable(request.accept, JSON_TYPES))
    return problem(notAcceptable(request.accept!, JSON_TYPES));
  if (!unfiltered(request.search)) {
    const params = readParams(new URLSearchParams(request.search), []);
    if (!params.ok) return problem(params.problem);
  }
  if (!state.status)
    return problem({
      code: 'service_unavailable',
      detail: 'The status service is not running in this process.',
      extensions: {},
    });
  const text = state.status();
  return typeof text === 'string' ? statusAnswer(text) : text.then(statusAnswer);
}

const statusAnswer = (text: string): Answer => ({
  ok: true,
  body: { text, contentType: MEDIA_TYPES.json },
  cacheControl: STATUS_CACHE,
  vary: VARY_CODING,
  fixed: false,
});

type AnswerOf = (
  request: AnswerRequest,
  state: AnswerState,
  operation: Operation,
) => Answer | Promise<Answer>;

/** A dataset operation's answer: its view, found by the operation's path. */
const datasetAnswer: AnswerOf = (request, state, operation) =>
  answerDataset(operation.path, request, state);

/**
 * Each operation's answer, by operationId: an operation without one does not compile. The
 * entry (operations.ts) says where it is served; the answer says what it sends.
 */
export const OPERATION_ANSWERS: Record<OperationId, AnswerOf> = {
  listRegistryAssets: datasetAnswer,
  getRegistryAsset: answerRegistryAsset,
  getStablecoinMarket: datasetAnswer,
  getMicaStatus: datasetAnswer,
  getSystemStatus: answerSystemStatus,
};

export type PathAnswer = (request: AnswerRequest, state: AnswerState) => Answer | Promise<Answer>;

/** The answers by path, for the operations of `table` (each found by its operationId in `answers`). */
export function answersByPath(
  table: OperationsTable = OPERATIONS_TABLE,
  answers: Record<string, AnswerOf> = OPERATION_ANSWERS,
): Map<string, PathAnswer> {
  return new Map(
    table.list.map((op) => {
      const answer = answers[op.operationId];
      if (!answer) throw new Error(`no answer for ${op.operationId}`);
      return [op.path, (request, state) => answer(request, state, op)];
    }),
  );
}

/** Each operation's answer, by path (derived from the table and OPERATION_ANSWERS). */
export const ANSWERS = Object.fromEntries(answersByPath()) as Record<OperationPath, PathAnswer>;
