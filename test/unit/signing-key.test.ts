// The signing key from configuration: checked at start, its kid the RFC 7638 thumbprint (as jose
// computes it) unless SIGNING_KEY_ID names it, rotated-out public keys published after it.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ensureGeneratedKey,
  generatedKeyFile,
  loadSigningKey,
} from '../../src/representation/signing-key.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tai-key-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const ed25519 = generateKeyPairSync('ed25519');
const keyFile = write(
  'key.pem',
  ed25519.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
);
const older = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });

describe('loadSigningKey', () => {
  it('runs unsigned without SIGNING_KEY_FILE', () => {
    expect(loadSigningKey({})).toBeNull();
    expect(() => loadSigningKey({ SIGNING_KEY_ID: 'k1' })).toThrow(/without SIGNING_KEY_FILE/);
  });

  it('names the key by its RFC 7638 thumbprint', async () => {
    const key = loadSigningKey({ SIGNING_KEY_FILE: keyFile })!;
    const jwk = ed25519.publicKey.export({ format: 'jwk' });
    expect(key.kid).toBe(await calculateJwkThumbprint(jwk as never, 'sha256'));
    expect(key.jwks.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: key.kid, alg: 'EdDSA', use: 'sig' },
    ]);
  });

  it('takes SIGNING_KEY_ID and publishes the rotated-out keys after the current one', () => {
    const previous = write('prev.json', JSON.stringify({ keys: [{ ...older, kid: '2025-a' }] }));
    const key = loadSigningKey({
      SIGNING_KEY_FILE: keyFile,
      SIGNING_KEY_ID: '2026-b',
      SIGNING_PREVIOUS_KEYS_FILE: previous,
    })!;
    expect(key.jwks.keys.map((k) => k.kid)).toEqual(['2026-b', '2025-a']);
  });

  it.each([
    [
      'a private key among the published ones',
      { keys: [{ ...older, d: 'AAAA', kid: 'x' }] },
      /private key material/,
    ],
    ['not a JWK Set', [older], /must be a JWK Set/],
    [
      'an RSA key',
      { keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB' }] },
      /keys\[0\] must be an Ed25519/,
    ],
    ['the current key again', { keys: [{ ...older, kid: 'now' }] }, /kid now is published twice/],
  ])('refuses a previous-keys file with %s', (_name, set, message) => {
    const file = write('bad.json', JSON.stringify(set));
    expect(() =>
      loadSigningKey({
        SIGNING_KEY_FILE: keyFile,
        SIGNING_KEY_ID: 'now',
        SIGNING_PREVIOUS_KEYS_FILE: file,
      }),
    ).toThrow(message);
  });

  it('refuses a file that is not a private key, and a kid that cannot be sent', () => {
    const notKey = write('nope.pem', 'hello');
    expect(() => loadSigningKey({ SIGNING_KEY_FILE: notKey })).toThrow(
      /nope\.pem: not a PEM private key; make one with `openssl genpkey -algorithm ed25519/,
    );
    expect(() => loadSigningKey({ SIGNING_KEY_FILE: keyFile, SIGNING_KEY_ID: 'a "b"' })).toThrow(
      /SIGNING_KEY_ID must be/,
    );
  });
});

describe('SIGNING_KEY_MODE=generate (npm start)', () => {
  it('makes a key once into DATA_DIR, readable by its owner only, and keeps it across starts', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'tai-gen-')), 'var');
    const first = loadSigningKey({ SIGNING_KEY_MODE: 'generate', DATA_DIR: dataDir })!;
    const file = generatedKeyFile(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadSigningKey({ SIGNING_KEY_MODE: 'generate', DATA_DIR: dataDir })!;
    expect(again.kid).toBe(first.kid);
    expect(ensureGeneratedKey(dataDir).created).toBe(false);
  });

  it('leaves a configured SIGNING_KEY_FILE in charge, and stays unsigned in file mode without one', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tai-gen-'));
    const key = loadSigningKey({
      SIGNING_KEY_MODE: 'generate',
      DATA_DIR: dataDir,
      SIGNING_KEY_FILE: keyFile,
    })!;
    expect(key.kid).toBe(loadSigningKey({ SIGNING_KEY_FILE: keyFile })!.kid);
    expect(existsSync(generatedKeyFile(dataDir))).toBe(false);
    expect(loadSigningKey({ SIGNING_KEY_MODE: 'file', DATA_DIR: dataDir })).toBeNull();
  });
});
