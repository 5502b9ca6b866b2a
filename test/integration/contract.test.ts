// The published contract and the running server agree: the same operations, every problem a
// client can cause documented, every problem type resolving on the errors page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS } from '../../src/domain/errors.ts';
import { OPERATIONS } from '../../src/api/operations.ts';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let doc: {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { content?: Record<string, { examples?: Record<string, unknown> }> }
        >;
      }
    >
  >;
};
beforeAll(async () => {
  server = await startServer();
  doc = JSON.parse((await raw(`${server.url}/openapi.json`)).body.toString());
});
afterAll(async () => {
  await server?.stop();
});

describe('contract', () => {
  it('documents exactly the operations the server answers under /v1', async () => {
    const documented = Object.keys(doc.paths).sort();
    expect(documented).toEqual(OPERATIONS.map((o) => o.path).sort());
    for (const path of documented) {
      // Each documented path is answered (with a key) by something other than "no such operation".
      const res = await raw(
        `${server.url}${path}${path.endsWith('/asset') ? '?tfin=TFIN-DEBT-ETH-2021-0001' : ''}`,
      );
      expect(res.status, path).toBe(200);
    }
    for (const path of [
      '/v1/registry',
      '/v1/market',
      '/v1/system',
      '/v1/registry/assets/extra',
      '/v2/registry/assets',
    ]) {
      const res = await raw(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
    }
    expect(Object.values(doc.paths).every((p) => Object.keys(p).join() === 'get')).toBe(true);
  });

  it('documents every problem an operation can answer, and each type resolves on the errors page', async () => {
    const documented = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const response of Object.values(item['get']!.responses)) {
        for (const example of Object.keys(
          response.content?.['application/problem+json']?.examples ?? {},
        ))
          documented.add(example);
      }
    }
    const pathLevel = ['not_found', 'method_not_allowed'];
    // Answered by the edge for a signed download URL (deploy/nginx, /downloads/), no operation.
    const edgeOnly = ['signed_url_invalid', 'signed_url_expired'];
    for (const code of Object.keys(PROBLEMS)) {
      if (!pathLevel.includes(code) && !edgeOnly.includes(code))
        expect(documented, code).toContain(code);
    }
    const page = (await raw(`${server.url}/docs/errors`)).body.toString();
    for (const code of Object.keys(PROBLEMS)) expect(page, code).toContain(`id="${code}"`);
  });
});
