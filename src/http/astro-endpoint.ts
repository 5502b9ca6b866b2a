// The Astro side of the five operations: every endpoint under src/pages/v1 is this adapter
// around the operation's answer (src/api/answers.ts), written as the server writes it
// (representation.ts), so FAST_PATH=off answers with the same status, headers and bytes.
import type { APIContext, APIRoute } from 'astro';
import { ANSWERS, answerDataset, type AnswerState } from '../api/answers.ts';
import { datasetViews } from '../api/dataset-views.ts';
import { PER_RECORD_OPERATION, operationAt, type OperationPath } from '../api/operations.ts';
import { DEFAULT_LIMIT } from '../api/registry-list.ts';
import { datasetPath, readDataset, readProfiles } from '../dataset/artifact.ts';
import { assetSummary } from '../dataset/views.ts';
import type { AssetProfile } from '../domain/api.ts';
import { loadAnswerState } from '../representation/answer-state.ts';
import { answerResponse } from '../representation/representation.ts';

let loaded: AnswerState | undefined;

/**
 * The state the server passes in `locals.answers`; without it (FAST_PATH=off before the pipeline
 * passes it, astro preview) the built files are loaded once, as the server loads them.
 */
function stateOf(locals: App.Locals): AnswerState {
  const base =
    locals.answers ??
    (loaded ??= loadAnswerState(process.env['DIST_DIR'] ?? 'dist', datasetPath()));
  const status = locals.status;
  return status && !base.status ? { ...base, status: () => status.latest() } : base;
}

/** The answer to `request` for the operation at `path`, as a Response. */
export async function operationResponse(
  path: OperationPath,
  { request, url, locals }: Pick<APIContext, 'request' | 'url' | 'locals'>,
): Promise<Response> {
  const answer = await ANSWERS[path](
    { search: url.search, accept: request.headers.get('accept') },
    stateOf(locals),
  );
  const live = operationAt(path)?.kind === 'status';
  return answerResponse(answer, request, locals.requestId, locals.signer, live);
}

/** GET and HEAD of an on-demand operation endpoint. */
export function operationEndpoint(path: OperationPath): { GET: APIRoute; HEAD: APIRoute } {
  const handler: APIRoute = (context) => operationResponse(path, context);
  return { GET: handler, HEAD: handler };
}

/**
 * A dataset operation's unfiltered JSON body, prerendered at build by its answer. The build has
 * no registry runtime: the default list page reads only the profiles file's first DEFAULT_LIMIT
 * lines (the first assets by TFIN).
 */
export function prerenderedDataset(path: OperationPath): Response {
  const core = readDataset();
  const first = new Map<string, AssetProfile>();
  if (path === PER_RECORD_OPERATION?.path)
    for (const p of readProfiles(undefined, DEFAULT_LIMIT)) first.set(p.tfin, p);
  const views = datasetViews(core, { core, summaryOf: (tfin) => assetSummary(first.get(tfin)!) });
  const answer = answerDataset(
    path,
    { search: '' },
    { core, releases: null, views, releaseViews: () => null },
  );
  if (!answer.ok || !('text' in answer.body))
    throw new Error(`the unfiltered ${path} cannot fail: ${JSON.stringify(answer)}`);
  const text = answer.body.text;
  return new Response(typeof text === 'string' ? text : new Uint8Array(text), {
    headers: { 'Content-Type': answer.body.contentType },
  });
}
