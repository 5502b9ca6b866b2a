// The Astro side of the five operations: every endpoint under src/pages/v1 is this adapter
// around the operation's answer (src/api/answers.ts), written as the server writes it
// (representation.ts), so FAST_PATH=off answers with the same status, headers and bytes.
import type { APIContext } from 'astro';
import { ANSWERS, type AnswerState } from '../api/answers.ts';
import { operationAt, type OperationPath } from '../api/operations.ts';
import { datasetPath } from '../dataset/artifact.ts';
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
