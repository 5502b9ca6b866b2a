// npm run -s edge:paths: the edge's dataset paths (TAI_DATASET_PATHS in
// deploy/nginx/tai-edge.conf.template, docs/production.md "Running in production"), from the operations
// table, so the files nginx sends itself are always the dataset operations of this release.
import { PRERENDERED_VIEWS } from '../src/api/operations.ts';

/** The dataset operations' paths below /v1/, as the alternation of nginx's location regex. */
export function edgeDatasetPaths(): string {
  return PRERENDERED_VIEWS.map((p) => {
    // Only characters that mean themselves in a regex (and need no quoting in nginx).
    if (!/^\/v1\/[a-z0-9/-]+$/.test(p)) throw new Error(`not a path the edge can match: ${p}`);
    return p.slice('/v1/'.length);
  }).join('|');
}

if (import.meta.main) console.log(edgeDatasetPaths());
