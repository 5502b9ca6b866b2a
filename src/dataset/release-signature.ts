// Detached signatures of the release manifests (data/releases/<dataset_version>.jws beside
// <dataset_version>.json): a compact JWS (RFC 7515, EdDSA over Ed25519) of the manifest file's
// exact bytes with the payload left out (Appendix F), so anyone holding a manifest can prove
// offline, with a standard JWS library, that it is the release as published. The public keys that
// sign releases are data/releases/signing-keys.json (a JWK Set); a rotated-out key stays there.
import { CompactSign, compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { KeyObject } from 'node:crypto';
import path from 'node:path';

/** The JWK Set of the keys that sign releases, beside the manifests. */
export const RELEASE_KEYS_FILE = 'signing-keys.json';

export const signatureFileOf = (manifestFile: string): string =>
  path.join(path.dirname(manifestFile), `${path.basename(manifestFile, '.json')}.jws`);

/** The detached compact JWS of a manifest's bytes: `<protected header>..<signature>`. */
export async function signManifest(bytes: Uint8Array, key: KeyObject, kid: string) {
  const jws = await new CompactSign(bytes)
    .setProtectedHeader({ alg: 'EdDSA', kid, cty: 'json' })
    .sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

/** The kid that signed `bytes`; throws when the detached signature does not verify. */
export async function verifyManifest(
  bytes: Uint8Array,
  detached: string,
  keys: JSONWebKeySet,
): Promise<string> {
  const [header, empty, signature] = detached.trim().split('.');
  if (empty !== '' || !header || !signature) throw new Error('not a detached compact JWS');
  const attached = `${header}.${Buffer.from(bytes).toString('base64url')}.${signature}`;
  const { protectedHeader } = await compactVerify(attached, createLocalJWKSet(keys), {
    algorithms: ['EdDSA', 'Ed25519'],
  });
  return protectedHeader.kid ?? '';
}
