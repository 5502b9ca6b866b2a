// The Node.js example of /docs/verifying, run as a reader would run it: taken from the page the
// server serves, pointed at that server, and executed. Against a signed deployment it verifies;
// against an unsigned one it reports "not signed" (not "body altered": issue 38).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const keyFile = path.join(mkdtempSync(path.join(tmpdir(), 'tai-verifying-')), 'signing.pem');
execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);

let signed: TestServer;
let unsigned: TestServer;
beforeAll(async () => {
  // One after the other: two starts at once on a loaded 2-core machine only slow each other.
  signed = await startServer({ SIGNING_KEY_FILE: keyFile });
  unsigned = await startServer({});
});
afterAll(async () => {
  await Promise.all([signed?.stop(), unsigned?.stop()]);
});

const unescape = (html: string) =>
  html
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&');

/** The page's Node.js example, its `https://<host>` replaced by `origin`. */
async function nodeExample(server: TestServer, origin: string): Promise<string> {
  const html = (await raw(`${server.url}/docs/verifying`, { noKey: true })).body.toString();
  const blocks = [...html.matchAll(/<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    unescape(m[1]!),
  );
  const example = blocks.find((b) => b.includes("from 'http-message-signatures'"));
  expect(example, 'the Node.js example on /docs/verifying').toBeDefined();
  return example!.replaceAll('https://<host>', origin);
}

/** Runs the example as an ES module from the repository (its packages resolve from node_modules). */
async function runExample(code: string): Promise<{ ok: boolean; stderr: string }> {
  try {
    await run(process.execPath, ['--input-type=module', '--eval', code], { cwd: process.cwd() });
    return { ok: true, stderr: '' };
  } catch (e) {
    return { ok: false, stderr: String((e as { stderr?: string }).stderr ?? e) };
  }
}

describe('the Node.js example of /docs/verifying', () => {
  it('verifies an answer of a signed deployment', async () => {
    const result = await runExample(await nodeExample(signed, signed.url));
    expect(result.stderr).toBe('');
    expect(result.ok).toBe(true);
  });

  it('reports "not signed", not "body altered", for an unsigned deployment', async () => {
    const result = await runExample(await nodeExample(unsigned, unsigned.url));
    expect(result.ok).toBe(false);
    expect(result.stderr).toContain('not signed');
    expect(result.stderr).not.toContain('body altered');
  });
});
