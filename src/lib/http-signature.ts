// HTTP Message Signatures (RFC 9421) with Ed25519, and Content-Digest (RFC 9530). Only what a
// signer needs: the signature base of given component values, the Signature-Input inner list,
// and the signature. Verifying is left to clients and their off-the-shelf libraries (the tests
// verify with one), so nothing here parses a signature.
import { createHash, sign, type KeyObject } from 'node:crypto';

/** `Content-Digest` of bytes as sent (the encoded content: each coding has its own). */
export function contentDigest(bytes: Buffer | string): string {
  return `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
}

export interface SignatureParameters {
  /** Seconds since the epoch. */
  created?: number;
  keyid: string;
  alg?: 'ed25519';
}

// A Structured Field string (RFC 9651 §3.3.3): printable ASCII; quotes and backslashes would need
// escaping, which key ids and component names never need, so they are refused instead.
const SF_STRING = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
function quoted(value: string): string {
  if (!SF_STRING.test(value)) throw new Error(`not a plain structured-field string: ${value}`);
  return `"${value}"`;
}

/** The inner list Signature-Input carries: `("@status" "content-type");created=…;keyid="…"`. */
export function signatureParams(
  components: readonly string[],
  params: SignatureParameters,
): string {
  let list = `(${components.map(quoted).join(' ')})`;
  if (params.created !== undefined) list += `;created=${Math.floor(params.created)}`;
  list += `;keyid=${quoted(params.keyid)}`;
  if (params.alg) list += `;alg=${quoted(params.alg)}`;
  return list;
}

/**
 * The signature base (RFC 9421 §2.5): one `"<component>": <value>` line per covered component,
 * in the order given, then the signature parameters.
 */
export function signatureBase(values: readonly (readonly [string, string])[], params: string) {
  let base = '';
  for (const [component, value] of values) base += `${quoted(component)}: ${value}\n`;
  return `${base}"@signature-params": ${params}`;
}

/** The Signature-Input and Signature field values of one labelled Ed25519 signature. */
export function signFields(
  key: KeyObject,
  label: string,
  values: readonly (readonly [string, string])[],
  params: SignatureParameters,
): { input: string; signature: string } {
  const inner = signatureParams(
    values.map(([component]) => component),
    params,
  );
  const signature = sign(null, Buffer.from(signatureBase(values, inner)), key).toString('base64');
  return { input: `${label}=${inner}`, signature: `${label}=:${signature}:` };
}
