// The root every operation's path is under (the major version), in its own module so that both
// the operations table and the modules it reads (bulk.ts) can name it without a file circle.
export const API_ROOT = '/v1';

/** True for the root and any path below it: the API's 404 (not the site's) answers the unknown ones. */
export const underApiRoot = (path: string): boolean =>
  path === API_ROOT || path.startsWith(`${API_ROOT}/`);
