// Keys are never logged in full: a test run's logs are scanned for every key it used.
import { describe, expect, it } from 'vitest';
import { keysTool, raw, startServer } from '../helpers/server.ts';

describe('secrets in logs', () => {
  it('never writes a key to the logs, whichever way it was sent', async () => {
    const s = await startServer({ LOG_LEVEL: 'trace' });
    const created = JSON.parse(
      (await keysTool(s.env, 'create', '--tier', 'institutional', '--owner', 'Logs', '--json'))
        .stdout,
    );
    const wrong = `${created.key.slice(0, -6)}AAAAAA`;
    await raw(`${s.url}/v1/registry/assets`, {
      noKey: true,
      headers: { 'x-api-key': created.key },
    });
    await raw(`${s.url}/v1/registry/assets`, {
      noKey: true,
      headers: { authorization: `Bearer ${created.key}` },
    });
    await raw(`${s.url}/v1/registry/assets?api_key=${created.key}`, { noKey: true });
    await raw(`${s.url}/v1/registry/asset?tfin=${created.key}`, {
      noKey: true,
      headers: { 'x-api-key': created.key },
    });
    await raw(`${s.url}/v1/registry/assets`, { noKey: true, headers: { 'x-api-key': wrong } });
    await keysTool(s.env, 'revoke', created.id);
    expect(await s.stop()).toBe(0);
    const logs = s.output();
    expect(logs).toContain('"msg":"request"');
    // The secret part (after the public prefix) must appear nowhere; the display prefix may.
    const secret = created.key.slice(created.display_prefix.length);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(wrong.slice(created.display_prefix.length));
    expect(logs).toContain(created.display_prefix);
  });
});
