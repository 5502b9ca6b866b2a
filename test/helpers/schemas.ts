// Response validation against the published JSON Schemas (schemas/), with ajv.
import { expect } from 'vitest';
import { schemaErrors } from '../../src/authoring/validate-output.ts';

export function expectSchema(file: string, body: unknown): void {
  expect(schemaErrors(file, body), `response does not match schemas/${file}`).toEqual([]);
}

export async function expectProblem(
  res: Response,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expectSchema('v1/problem.schema.json', body);
  expect(body['status']).toBe(status);
  expect(body['code']).toBe(code);
  expect(body['type']).toBe(`/docs/errors#${code}`);
  expect(String(body['instance'])).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  expect(JSON.stringify(body)).not.toMatch(/at .+\.(ts|js|mjs):\d+/);
  return body;
}
