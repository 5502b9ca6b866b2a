// Issue #25 item 4: a key placed anywhere in a URL is refused and never repeated (not in the
// answer, not in the access log, which shows it redacted), and two different keys in
// X-API-Key and Authorization: Bearer are refused with their own code instead of one being
// picked silently. Against a real server process and its real log output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/schemas.ts';
import { keysTool, raw, startServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let key: string;
let other: string;
beforeAll(async () => {
  s = await startServer();
  const make = async () =>
    JSON.parse(
      (await keysTool(s.env, 'create', '--tier', 'enterprise', '--owner', 'K', '--json')).stdout,
    ).key as string;
  key = await make();
  other = await make();
});
afterAll(() => s?.stop());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a key in the URL', () => {
  it('is refused wherever it sits, never echoed, and logged redacted', async () => {
    const encoded = key.replace('_', '%5F');
    const targets = [
      `/v1/registry/asset/${key}`,
      `/${key}`,
      `/docs/${key}/x`,
      `/v1/registry/asset?tfin=${key}`,
      `/v1/registry/assets?q=${encoded}`,
      `/v1/${encoded}`,
    ];
    for (const target of targets) {
      const res = await raw(`${s.url}${target}`);
      expect(res.status, target).toBe(400);
      const body = res.body.toString();
      expect(body).not.toContain(key.slice(9));
      expect(JSON.parse(body).code).toBe('api_key_in_query');
      expect(Object.values(res.headers).join(' ')).not.toContain(key.slice(9));
    }
    const res = await fetch(`${s.url}/v1/registry/asset/${key}`, {
      headers: { 'x-api-key': 'DEMO_KEY' },
    });
    await expectProblem(res, 400, 'api_key_in_query');
    // Access lines are written in batches, at least every second.
    await sleep(1500);
    const out = s.output();
    expect(out).not.toContain(key.slice(9));
    expect(out).toContain('"path":"/v1/registry/asset/tai_live_[redacted]"');
  });
});

describe('two credentials', () => {
  it('X-API-Key with a different Bearer key is a 400 conflicting_credentials', async () => {
    const res = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': key, authorization: `Bearer ${other}` },
    });
    await expectProblem(res, 400, 'conflicting_credentials');
    // DEMO_KEY with a subscription key is two credentials as well.
    const demo = await fetch(`${s.url}/v1/registry/assets`, {
      headers: { 'x-api-key': 'DEMO_KEY', authorization: `Bearer ${key}` },
    });
    await expectProblem(demo, 400, 'conflicting_credentials');
  });

  it('the same key in both, or either alone, is answered', async () => {
    for (const headers of [
      { 'x-api-key': key, authorization: `Bearer ${key}` },
      { 'x-api-key': key },
      { authorization: `Bearer ${key}` },
      // An Authorization header of another scheme carries no key to conflict with.
      { 'x-api-key': key, authorization: 'Basic dXNlcjpwYXNz' },
    ]) {
      const res = await fetch(`${s.url}/v1/registry/assets`, { headers });
      expect(res.status, JSON.stringify(Object.keys(headers))).toBe(200);
    }
  });
});
