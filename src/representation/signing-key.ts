// The response signing key and the published key set. SIGNING_KEY_FILE names an Ed25519 private
// key in PKCS#8 PEM (`openssl genpkey -algorithm ed25519`), checked at start; its key id is the
// RFC 7638 thumbprint of its public JWK unless SIGNING_KEY_ID names it. SIGNING_PREVIOUS_KEYS_FILE
// is a JWK Set of rotated-out public keys, published beside the current one so that answers and
// releases signed before a rotation still verify. Without SIGNING_KEY_FILE the service is unsigned.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A public Ed25519 key as a JWK (RFC 8037). */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  privateKey: KeyObject;
  kid: string;
  /** The current key first, then the rotated-out ones. */
  jwks: { keys: PublicJwk[] };
}

export class SigningKeyError extends Error {}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no spaces, base64url. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

const KID = /^[A-Za-z0-9._~:-]{1,128}$/;

/** An Ed25519 private key from a PKCS#8 PEM file; errors name `variable` and the fix. */
export function readPrivateKey(file: string, variable = 'SIGNING_KEY_FILE'): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SigningKeyError(
      `${variable}=${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new SigningKeyError(
      `${variable}=${file}: not a PEM private key; make one with \`openssl genpkey -algorithm ed25519 -out <file>\``,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SigningKeyError(
      `${variable}=${file}: an ${key.asymmetricKeyType} key; signatures here are Ed25519 (\`openssl genpkey -algorithm ed25519\`)`,
    );
  return key;
}

export function publicJwkOf(publicKey: KeyObject, kid?: string): PublicJwk {
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const base = { kty: 'OKP', crv: 'Ed25519', x } as const;
  return { ...base, kid: kid ?? jwkThumbprint(base), alg: 'EdDSA', use: 'sig' };
}

/** The rotated-out public keys: a JWK Set of Ed25519 public keys, each with its kid. */
function readPreviousKeys(file: string): PublicJwk[] {
  const where = `SIGNING_PREVIOUS_KEYS_FILE=${file}`;
  let set: unknown;
  try {
    set = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SigningKeyError(`${where}: not a readable JSON file (${(err as Error).message})`);
  }
  const keys = (set as { keys?: unknown }).keys;
  if (!Array.isArray(keys))
    throw new SigningKeyError(`${where}: must be a JWK Set, {"keys": [ … ]}`);
  return keys.map((k: Record<string, unknown>, i) => {
    if ('d' in k)
      throw new SigningKeyError(
        `${where}: keys[${i}] holds private key material ("d"); publish only public keys`,
      );
    if (k['kty'] !== 'OKP' || k['crv'] !== 'Ed25519' || typeof k['x'] !== 'string')
      throw new SigningKeyError(`${where}: keys[${i}] must be an Ed25519 public key (OKP)`);
    const kid = typeof k['kid'] === 'string' ? k['kid'] : undefined;
    if (kid !== undefined && !KID.test(kid))
      throw new SigningKeyError(
        `${where}: keys[${i}].kid must be 1 to 128 of A-Z a-z 0-9 . _ ~ : -`,
      );
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: k['x'] },
        format: 'jwk',
      });
    } catch {
      throw new SigningKeyError(`${where}: keys[${i}].x is not an Ed25519 public key`);
    }
    return publicJwkOf(publicKey, kid);
  });
}

export interface SigningConfig {
  SIGNING_KEY_MODE?: 'file' | 'generate' | undefined;
  DATA_DIR?: string | undefined;
  SIGNING_KEY_FILE?: string | undefined;
  SIGNING_KEY_ID?: string | undefined;
  SIGNING_PREVIOUS_KEYS_FILE?: string | undefined;
}

/** Where `SIGNING_KEY_MODE=generate` keeps its key. */
export function generatedKeyFile(dataDir: string): string {
  return path.join(dataDir, 'signing-key.pem');
}

/**
 * The generated key's file, made once (Ed25519, PKCS#8 PEM, readable by its owner only) and kept,
 * so answers signed by `npm start` still verify after a restart. `created` says whether it is new.
 */
export function ensureGeneratedKey(dataDir: string): { file: string; created: boolean } {
  const file = generatedKeyFile(dataDir);
  if (existsSync(file)) return { file, created: false };
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' });
  // 'wx': two instances starting at once never overwrite each other's key.
  try {
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { file, created: false };
  }
  return { file, created: true };
}

/** The configured key, or null (unsigned); throws SigningKeyError naming the variable and the fix. */
export function loadSigningKey(config: SigningConfig): SigningKey | null {
  if (!config.SIGNING_KEY_FILE && config.SIGNING_KEY_MODE === 'generate')
    return loadSigningKey({
      ...config,
      SIGNING_KEY_MODE: 'file',
      SIGNING_KEY_FILE: ensureGeneratedKey(config.DATA_DIR ?? 'var').file,
    });
  if (!config.SIGNING_KEY_FILE) {
    if (config.SIGNING_KEY_ID)
      throw new SigningKeyError(
        'SIGNING_KEY_ID is set without SIGNING_KEY_FILE: set both or neither',
      );
    return null;
  }
  if (config.SIGNING_KEY_ID !== undefined && !KID.test(config.SIGNING_KEY_ID))
    throw new SigningKeyError('SIGNING_KEY_ID must be 1 to 128 of A-Z a-z 0-9 . _ ~ : -');
  const privateKey = readPrivateKey(config.SIGNING_KEY_FILE);
  const current = publicJwkOf(createPublicKey(privateKey), config.SIGNING_KEY_ID);
  const previous = config.SIGNING_PREVIOUS_KEYS_FILE
    ? readPreviousKeys(config.SIGNING_PREVIOUS_KEYS_FILE)
    : [];
  const kids = new Set([current.kid]);
  for (const key of previous) {
    if (kids.has(key.kid))
      throw new SigningKeyError(
        `SIGNING_PREVIOUS_KEYS_FILE=${config.SIGNING_PREVIOUS_KEYS_FILE}: kid ${key.kid} is published twice (a previous key is the current key, or listed twice)`,
      );
    kids.add(key.kid);
  }
  return { privateKey, kid: current.kid, jwks: { keys: [current, ...previous] } };
}
