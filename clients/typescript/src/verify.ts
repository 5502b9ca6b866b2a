// Verifying a signed answer (RFC 9421 over the status, Content-Digest, Content-Type and
// Dataset-Version; RFC 9530 Content-Digest) with the maintained `http-message-signatures`
// library and the service's JWK Set (/.well-known/jwks.json).
import { createHash, createPublicKey } from 'node:crypto';
import { createVerifier, httpbis } from 'http-message-signatures';

export const SIGNED_COMPONENTS = ['@status', 'content-digest', 'content-type', 'dataset-version'];

export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
}

export class SignatureError extends Error {
  override name = 'SignatureError';
}

/** Fetches the JWK Set once, again (once) when a signature names a key it does not hold. */
export function keySource(load: () => Promise<{ keys: PublicJwk[] }>) {
  let keys: Promise<{ keys: PublicJwk[] }> | undefined;
  return async (kid: string): Promise<PublicJwk | undefined> => {
    keys ??= load();
    let found = (await keys).keys.find((k) => k.kid === kid);
    if (!found) {
      keys = load();
      found = (await keys).keys.find((k) => k.kid === kid);
    }
    return found;
  };
}

/** Throws SignatureError unless `bytes` (the body as sent) and the response's signature verify. */
export async function verifyResponse(
  status: number,
  headers: Headers,
  bytes: Uint8Array,
  keyOf: (kid: string) => Promise<PublicJwk | undefined>,
): Promise<void> {
  if (!headers.get('signature')) throw new SignatureError('the answer is not signed');
  const digest = `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
  if (headers.get('content-digest') !== digest)
    throw new SignatureError('the body does not match its Content-Digest');
  const verified = await httpbis
    .verifyMessage(
      {
        keyLookup: async ({ keyid }) => {
          const jwk = keyid ? await keyOf(keyid) : undefined;
          if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x) return null;
          const key = createPublicKey({
            key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
            format: 'jwk',
          });
          return { id: keyid!, algs: ['ed25519'], verify: createVerifier(key, 'ed25519') };
        },
        requiredFields: SIGNED_COMPONENTS,
        requiredParams: ['keyid'],
      },
      { status, headers: Object.fromEntries(headers) },
    )
    .catch((err: unknown) => {
      throw new SignatureError(`the signature is not acceptable: ${(err as Error).message}`);
    });
  if (verified !== true)
    throw new SignatureError(
      verified === null ? 'the signature names no published key' : 'the signature does not verify',
    );
}
