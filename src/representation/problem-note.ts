// The problem code a response answered with, kept on the response (a WeakMap entry per problem
// cost more): the writer notes it (respond.ts), the access log and the operator metrics read it.
import type { ServerResponse } from 'node:http';

const PROBLEM_CODE = Symbol('tai.problemCode');
type Noted = ServerResponse & { [PROBLEM_CODE]?: string };

export function noteProblem(res: ServerResponse, code: string): void {
  (res as Noted)[PROBLEM_CODE] = code;
}

export function problemCodeOf(res: ServerResponse): string | undefined {
  return (res as Noted)[PROBLEM_CODE];
}
