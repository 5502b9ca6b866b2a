// Release manifests carry a detached JWS each (data/releases/<version>.jws), verified here with a
// standard JWS library (jose's compactVerify, the payload re-attached as RFC 7515 Appendix F
// says) against the committed key set; a manifest changed by one byte does not verify.
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RELEASES_DIR } from '../../src/dataset/release-manifest.ts';
import { VERSION } from '../../src/dataset/version.ts';
import { verifyManifest } from '../../src/dataset/release-signature.ts';
import { signAll, signRelease } from '../../scripts/sign-release.ts';

const dir = DEFAULT_RELEASES_DIR;
const manifests = readdirSync(dir).filter(
  (f) => f.endsWith('.json') && VERSION.test(f.slice(0, -'.json'.length)),
);
const keys = JSON.parse(readFileSync(path.join(dir, 'signing-keys.json'), 'utf8')) as JSONWebKeySet;

/** jose alone: header.payload.signature with the manifest's bytes as the payload. */
async function joseVerifies(bytes: Buffer, detached: string, set = keys): Promise<boolean> {
  const [header, , signature] = detached.trim().split('.');
  const jws = `${header}.${bytes.toString('base64url')}.${signature}`;
  return compactVerify(jws, createLocalJWKSet(set)).then(
    () => true,
    () => false,
  );
}

describe('committed release manifests', () => {
  it.each(manifests)('%s has a detached signature that verifies', async (f) => {
    const version = f.slice(0, -'.json'.length);
    const jwsFile = path.join(dir, `${version}.jws`);
    let detached: string;
    try {
      detached = readFileSync(jwsFile, 'utf8');
    } catch {
      throw new Error(
        `${path.relative(process.cwd(), jwsFile)} is missing: RELEASE_SIGNING_KEY_FILE=<the release key> npm run data:sign`,
      );
    }
    expect(detached).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\n$/);
    const bytes = readFileSync(path.join(dir, f));
    expect(
      await joseVerifies(bytes, detached),
      `${f}: its signature does not verify (the manifest was regenerated?): RELEASE_SIGNING_KEY_FILE=<the release key> npm run data:sign`,
    ).toBe(true);
    const changed = Buffer.from(bytes);
    changed[changed.length >> 1]! ^= 1;
    expect(await joseVerifies(changed, detached)).toBe(false);
  });
});

describe('signing a release', () => {
  it('writes the signature and publishes the key; a new key keeps the old one published', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'tai-release-'));
    const file = path.join(work, manifests[0]!);
    copyFileSync(path.join(dir, manifests[0]!), file);
    const first = { key: generateKeyPairSync('ed25519').privateKey, kid: 'first' };
    await signRelease(file, first);
    const set = () =>
      JSON.parse(readFileSync(path.join(work, 'signing-keys.json'), 'utf8')) as JSONWebKeySet;
    const jws = () => readFileSync(file.replace(/\.json$/, '.jws'), 'utf8');
    expect(await verifyManifest(readFileSync(file), jws(), set())).toBe('first');

    // Rotation: the manifest changes (re-cut), signAll re-signs with the new key only what no
    // longer verifies; both keys stay published.
    writeFileSync(file, readFileSync(file, 'utf8').replace('"dataset_date"', '"dataset_date" '));
    const second = { key: generateKeyPairSync('ed25519').privateKey, kid: 'second' };
    await signAll(work, second);
    expect(set().keys.map((k) => k.kid)).toEqual(['second', 'first']);
    expect(await verifyManifest(readFileSync(file), jws(), set())).toBe('second');
    expect(await joseVerifies(readFileSync(file), jws(), set())).toBe(true);
  });
});
