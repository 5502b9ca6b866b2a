// The public surface: the API operations under /v1, from the operations table
// (src/api/operations.ts). Anything not listed (and not a static file of the built site) is a
// 404 problem.
export { ALLOWED_METHODS, OPERATIONS, isOperation, type Operation } from '../api/operations.ts';
