// Signed answers, checked by an independent verifier: the `http-message-signatures` library
// (RFC 9421) with the keys the server publishes at /.well-known/jwks.json, and the body's
// SHA-256 against Content-Digest (RFC 9530). A response of every operation in every coding, a
// problem of each kind, and HEAD verify; a body changed by one byte does not.
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { httpbis, createVerifier } from 'http-message-signatures';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { raw, startServer, type RawResponse, type TestServer } from '../helpers/server.ts';
import { OPERATIONS } from '../../src/api/operations.ts';
import { readDataset } from '../../src/dataset/artifact.ts';
import { readManifests } from '../../src/dataset/release-manifest.ts';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const dir = mkdtempSync(path.join(tmpdir(), 'tai-signing-'));
const keyFile = path.join(dir, 'signing.pem');
// The key as operators make it (the issue names this command).
execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);
// A rotated-out key: only its public half is published.
const retired = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
const previousFile = path.join(dir, 'previous.jwks.json');
writeFileSync(previousFile, JSON.stringify({ keys: [{ ...retired, kid: 'retired-2025' }] }));

let signed: TestServer;
let jwks: { keys: (JWK & { kid: string })[] };

beforeAll(async () => {
  signed = await startServer({
    SIGNING_KEY_FILE: keyFile,
    SIGNING_PREVIOUS_KEYS_FILE: previousFile,
  });
  jwks = JSON.parse(
    (await raw(`${signed.url}/.well-known/jwks.json`, { noKey: true })).body.toString(),
  );
});
afterAll(async () => {
  await signed?.stop();
});

const version = readDataset().dataset_version;
const tfin = readDataset().registry.rows[0]!.tfin;

/** The verifier of a key id, from the published JWK Set (null for a key it does not publish). */
async function keyLookup(params: { keyid?: string }) {
  const jwk = jwks.keys.find((k) => k.kid === params.keyid);
  if (!jwk) return null;
  const key: KeyObject = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) },
    format: 'jwk',
  });
  return { id: jwk.kid, algs: ['ed25519'], verify: createVerifier(key, 'ed25519') };
}

/** True when the signature verifies and covers status, digest, type and dataset version. */
async function signatureVerifies(r: RawResponse): Promise<boolean> {
  const headers = Object.fromEntries(
    Object.entries(r.headers).filter((e): e is [string, string | string[]] => e[1] !== undefined),
  );
  return (
    (await httpbis.verifyMessage(
      {
        keyLookup,
        requiredFields: ['@status', 'content-digest', 'content-type', 'dataset-version'],
        requiredParams: ['created', 'keyid'],
      },
      { status: r.status, headers },
    )) === true
  );
}

const digestOf = (bytes: Buffer) =>
  `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;

const CODINGS = { identity: 'identity', gzip: 'gzip', br: 'br' } as const;
const TARGETS: Record<string, string> = {
  '/v1/registry/assets': '/v1/registry/assets',
  '/v1/registry/asset': `/v1/registry/asset?tfin=${tfin}`,
  '/v1/market/stablecoins': '/v1/market/stablecoins',
  '/v1/compliance/mica-status': '/v1/compliance/mica-status',
  '/v1/system/status': '/v1/system/status',
};

describe('the published keys', () => {
  it('are a JWK Set: the current key (kid = RFC 7638 thumbprint) and the rotated-out one', async () => {
    expect(jwks.keys).toHaveLength(2);
    const [current, previous] = jwks.keys;
    expect(current).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(current!.kid).toBe(await calculateJwkThumbprint(current!, 'sha256'));
    expect(previous).toMatchObject({ kid: 'retired-2025', x: retired.x });
    for (const k of jwks.keys) expect(k).not.toHaveProperty('d');
  });

  it('readiness names the signing key', async () => {
    const ready = JSON.parse((await raw(`${signed.url}/readyz`, { noKey: true })).body.toString());
    expect(ready.signing).toEqual({ signed: true, kid: jwks.keys[0]!.kid });
  });
});

describe('every operation, in every coding, verifies with an off-the-shelf RFC 9421 verifier', () => {
  const cases = OPERATIONS.flatMap((op) =>
    Object.values(CODINGS).map((coding) => [op.path, coding] as const),
  );
  it.each(cases)('%s (%s)', async (op, coding) => {
    const r = await raw(`${signed.url}${TARGETS[op]}`, {
      headers: { 'accept-encoding': coding },
    });
    expect(r.status).toBe(200);
    if (coding !== 'identity') expect(r.headers['content-encoding']).toBe(coding);
    expect(r.headers['dataset-version']).toBe(version);
    expect(r.headers['content-digest']).toBe(digestOf(r.body));
    expect(await signatureVerifies(r)).toBe(true);

    // One byte changed: the body no longer matches the signed digest...
    const changed = Buffer.from(r.body);
    changed[changed.length >> 1]! ^= 1;
    expect(digestOf(changed)).not.toBe(r.headers['content-digest']);
    // ...and a digest made to match it breaks the signature.
    const forged = { ...r, headers: { ...r.headers, 'content-digest': digestOf(changed) } };
    expect(await signatureVerifies(forged)).toBe(false);
  });

  it('a fixed body is signed once for the release: the same signature on every request', async () => {
    const target = `${signed.url}${TARGETS['/v1/registry/asset']}`;
    const [a, b] = [await raw(target), await raw(target)];
    expect(b.headers['signature']).toBe(a.headers['signature']);
    expect(a.headers['signature-input']).toMatch(
      new RegExp(
        `^sig1=\\("@status" "content-digest" "content-type" "dataset-version"\\);created=${Math.floor(Date.parse(readDataset().generated_at) / 1000)};keyid="${jwks.keys[0]!.kid}";alg="ed25519"$`,
      ),
    );
  });

  it('HEAD carries the GET representation’s signed fields', async () => {
    const target = `${signed.url}/v1/market/stablecoins`;
    const [get, head] = [await raw(target), await raw(target, { method: 'HEAD' })];
    expect(head.body.length).toBe(0);
    for (const name of ['content-digest', 'signature-input', 'signature'])
      expect(head.headers[name]).toBe(get.headers[name]);
  });

  it('a dataset view computed for a query and a bulk format verify too', async () => {
    for (const target of [
      '/v1/registry/assets?asset_class=FUND&limit=5',
      '/v1/market/stablecoins?format=csv',
      '/v1/compliance/mica-status?format=ndjson',
    ]) {
      const r = await raw(`${signed.url}${target}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(r.status, target).toBe(200);
      expect(r.headers['content-digest'], target).toBe(digestOf(r.body));
      expect(await signatureVerifies(r), target).toBe(true);
    }
  });
});

describe('a point-in-time answer names and signs its own release (issue #41 item 3)', () => {
  // The newest committed release with a body that is not the one served.
  const older = readManifests()
    .filter((m) => m.body && m.dataset_version !== version)
    .at(-1)!;
  const olderCore = JSON.parse(
    gunzipSync(readFileSync(`data/releases/${older.body!.core.file}`)).toString(),
  ) as { dataset_version: string; generated_at: string; registry: { rows: { tfin: string }[] } };
  const olderTfin = olderCore.registry.rows[0]!.tfin;

  /** Verifies, requiring the release's generation time and digest to be covered as well. */
  const releaseSignatureVerifies = async (r: RawResponse) =>
    (await httpbis.verifyMessage(
      {
        keyLookup,
        requiredFields: [
          '@status',
          'content-digest',
          'content-type',
          'dataset-version',
          'dataset-generated-at',
          'dataset-digest',
        ],
        requiredParams: ['created', 'keyid'],
      },
      {
        status: r.status,
        headers: Object.fromEntries(
          Object.entries(r.headers).filter(
            (e): e is [string, string | string[]] => e[1] !== undefined,
          ),
        ),
      },
    )) === true;

  it.each([
    ['a lookup', `/v1/registry/asset?tfin=${olderTfin}&dataset_version=${older?.dataset_version}`],
    ['a dataset view', `/v1/registry/assets?limit=3&dataset_version=${older?.dataset_version}`],
  ])(
    '%s: Dataset-Version, generation time and digest of that release, signed',
    async (_, target) => {
      expect(older, 'a committed release older than the served one').toBeDefined();
      expect(olderCore.dataset_version).toBe(older.dataset_version);
      // Twice: a remembered answer must name the same release.
      for (let i = 0; i < 2; i++) {
        const r = await raw(`${signed.url}${target}`);
        expect(r.status, target).toBe(200);
        expect(JSON.parse(r.body.toString()).meta.dataset_version).toBe(older.dataset_version);
        expect(r.headers['dataset-version']).toBe(older.dataset_version);
        expect(r.headers['dataset-generated-at']).toBe(olderCore.generated_at);
        // The digest the release manifest states (and its JWS signs).
        expect(r.headers['dataset-digest']).toBe(`sha-256=${older.body!.core.sha256}`);
        expect(r.headers['signature-input']).toContain(
          '"dataset-version" "dataset-generated-at" "dataset-digest");created=' +
            Math.floor(Date.parse(olderCore.generated_at) / 1000),
        );
        expect(await releaseSignatureVerifies(r)).toBe(true);
        // Claiming the served release instead breaks the signature.
        const relabelled = { ...r, headers: { ...r.headers, 'dataset-version': version } };
        expect(await signatureVerifies(relabelled)).toBe(false);
        const redigested = {
          ...r,
          headers: { ...r.headers, 'dataset-digest': `sha-256=${'0'.repeat(64)}` },
        };
        expect(await releaseSignatureVerifies(redigested)).toBe(false);
      }
    },
  );

  it('an answer of the served release carries neither release field', async () => {
    const r = await raw(`${signed.url}/v1/registry/asset?tfin=${tfin}&dataset_version=${version}`);
    expect(r.headers['dataset-version']).toBe(version);
    expect(r.headers['dataset-generated-at']).toBeUndefined();
    expect(r.headers['dataset-digest']).toBeUndefined();
    expect(await signatureVerifies(r)).toBe(true);
  });
});

describe('problems are signed the same way', () => {
  it.each([
    ['a bad parameter (400)', '/v1/registry/assets?bogus=1', {}, 400],
    ['an unknown asset (404)', '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2099-0001', {}, 404],
    ['an unknown path under /v1 (404)', '/v1/nothing-here', {}, 404],
    ['no key (401)', '/v1/market/stablecoins', { noKey: true }, 401],
  ] as const)('%s', async (_name, target, init, status) => {
    // Twice: a remembered problem (prepared once) still names each request and is signed each time.
    for (let i = 0; i < 2; i++) {
      const r = await raw(`${signed.url}${target}`, init);
      expect(r.status).toBe(status);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.headers['content-digest']).toBe(digestOf(r.body));
      expect(await signatureVerifies(r)).toBe(true);
    }
  });
});

describe('without a key', () => {
  it('runs unsigned and says so in its log and in /readyz', async () => {
    const unsigned = await startServer();
    try {
      const r = await raw(`${unsigned.url}/v1/market/stablecoins`);
      expect(r.status).toBe(200);
      expect(r.headers['dataset-version']).toBe(version);
      expect(r.headers['signature']).toBeUndefined();
      const ready = JSON.parse(
        (await raw(`${unsigned.url}/readyz`, { noKey: true })).body.toString(),
      );
      expect(ready.signing).toEqual({ signed: false });
      // The log is written asynchronously (log-writer.ts): wait for the line.
      await vi.waitFor(() => expect(unsigned.output()).toMatch(/unsigned: no SIGNING_KEY_FILE/));
      const keys = JSON.parse(
        (await raw(`${unsigned.url}/.well-known/jwks.json`, { noKey: true })).body.toString(),
      );
      expect(keys).toEqual({ keys: [] });
    } finally {
      await unsigned.stop();
    }
  });

  it('refuses to start with a key that is not Ed25519, naming the variable and the fix', async () => {
    const rsa = path.join(dir, 'rsa.pem');
    execFileSync('openssl', [
      'genpkey',
      '-algorithm',
      'rsa',
      '-pkeyopt',
      'rsa_keygen_bits:2048',
      '-out',
      rsa,
    ]);
    await expect(startServer({ SIGNING_KEY_FILE: rsa })).rejects.toThrow(
      /SIGNING_KEY_FILE=.*rsa\.pem: an rsa key; signatures here are Ed25519/,
    );
    await expect(startServer({ SIGNING_KEY_FILE: path.join(dir, 'missing.pem') })).rejects.toThrow(
      /SIGNING_KEY_FILE=.*missing\.pem: cannot be read \(ENOENT\)/,
    );
  });
});

describe('the release feed and the verification page', () => {
  it('serves /releases.atom as Atom, linked from every page’s head', async () => {
    const feed = await raw(`${signed.url}/releases.atom`, { noKey: true });
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(feed.body.toString()).toContain(`<title>Dataset ${version}</title>`);
    for (const page of ['/', '/docs/changelog', '/docs/verifying']) {
      const html = (await raw(`${signed.url}${page}`, { noKey: true })).body.toString();
      expect(html, page).toContain(
        'rel="alternate" type="application/atom+xml" title="Data releases (Atom)" href="/releases.atom"',
      );
    }
  });
});
