// The response signer: a body fixed for the release is signed once per coding with the release's
// build time; a file too large to hold is digested from the file of the coding sent; a live body
// and a one-off problem are dated when signed. Each verifies with http-message-signatures.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createVerifier, httpbis } from 'http-message-signatures';
import { describe, expect, it, vi } from 'vitest';
import {
  ONE_OFF_PER_SECOND,
  responseSigner,
  signingCounts,
} from '../../src/representation/response-signer.ts';
import { precompute, streamedFile } from '../../src/representation/precomputed.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signer = responseSigner(
  { privateKey, kid: 'k1', jwks: { keys: [] } },
  { version: '2026-11-22.de0dba057f82', builtAt: '2026-11-22T10:00:00Z' },
);
const BUILT = Math.floor(Date.parse('2026-11-22T10:00:00Z') / 1000);

async function verifies(status: number, pairs: string[], extra: Record<string, string>) {
  const headers: Record<string, string> = { ...extra, 'dataset-version': signer.version };
  for (let i = 0; i < pairs.length; i += 2) headers[pairs[i]!.toLowerCase()] = pairs[i + 1]!;
  return httpbis.verifyMessage(
    {
      keyLookup: async () => ({
        id: 'k1',
        algs: ['ed25519'],
        verify: createVerifier(publicKey, 'ed25519'),
      }),
    },
    { status, headers },
  );
}
const digest = (b: Buffer | string) =>
  `sha-256=:${createHash('sha256').update(b).digest('base64')}:`;

describe('responseSigner', () => {
  it('signs a fixed body once per coding, dated at the build', async () => {
    const body = precompute('{"data":[1,2,3]}'.repeat(100), 'application/json');
    const first = signer.bodyHeaders(body, 'gzip', 200);
    expect(signer.bodyHeaders(body, 'gzip', 200)).toBe(first);
    expect(first[1]).toBe(digest(body.bodyFor('gzip')));
    expect(first[3]).toContain(`;created=${BUILT};keyid="k1";alg="ed25519"`);
    expect(signer.bodyHeaders(body, 'br', 200)[1]).toBe(digest(body.bodyFor('br')));
    expect(await verifies(200, first, { 'content-type': 'application/json' })).toBe(true);
    expect(await verifies(201, first, { 'content-type': 'application/json' })).toBe(false);
  });

  it('digests a streamed export from the file of the coding sent', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tai-signer-'));
    const file = path.join(dir, 'export.csv');
    writeFileSync(file, 'a,b\n1,2\n'.repeat(1000));
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)));
    const body = streamedFile(file, 'text/csv');
    const pairs = signer.bodyHeaders(body, 'gzip', 200);
    expect(pairs[1]).toBe(digest(readFileSync(`${file}.gz`)));
    expect(await verifies(200, pairs, { 'content-type': 'text/csv' })).toBe(true);
  });

  it('dates a live body and a one-off problem when it signs them', async () => {
    const before = Math.floor(Date.now() / 1000);
    const live = signer.bodyHeaders(
      precompute('{"ok":true}', 'application/json'),
      'identity',
      200,
      true,
    );
    const created = Number(/;created=(\d+)/.exec(live[3]!)![1]);
    expect(created).toBeGreaterThanOrEqual(before);
    const problem = signer.oneOffHeaders(404, 'application/problem+json', '{"status":404}');
    expect(problem[1]).toBe(digest('{"status":404}'));
    expect(await verifies(404, problem, { 'content-type': 'application/problem+json' })).toBe(true);
  });

  it('signs at most ONE_OFF_PER_SECOND one-off bodies a second, the data always', () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-07T10:00:00.100Z') });
    try {
      const fresh = responseSigner(
        { privateKey, kid: 'k1', jwks: { keys: [] } },
        { version: '2026-11-22.de0dba057f82', builtAt: '2026-11-22T10:00:00Z' },
      );
      const withheld = signingCounts.withheld;
      const one = () => fresh.oneOffHeaders(401, 'application/problem+json', '{"status":401}');
      for (let i = 0; i < ONE_OFF_PER_SECOND; i++) expect(one()).toHaveLength(6);
      expect(one()).toEqual([]);
      expect(signingCounts.withheld).toBe(withheld + 1);
      // A body fixed for the release is still signed (once, and served from memory).
      const body = precompute('{"rows":[]}', 'application/json');
      expect(fresh.bodyHeaders(body, 'identity', 200)).toHaveLength(6);
      // The next second has its budget again.
      vi.setSystemTime(Date.parse('2026-12-07T10:00:01.100Z'));
      expect(one()).toHaveLength(6);
    } finally {
      vi.useRealTimers();
    }
  });
});
