// API keys: `tai_<env>_<30 base62 random><6 base62 CRC32 checksum>`. The typed prefix lets secret
// scanners recognise leaked keys; the checksum rejects typos before any lookup; only a SHA-256
// digest is stored, and digests are compared in constant time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { safeEqual } from '../lib/safe-equal.ts';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 30;
const CHECKSUM_CHARS = 6;
export const KEY_PATTERN = /^tai_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;
export const DEMO_KEY = 'DEMO_KEY';
export const TIERS = ['institutional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely (248 = 4 × 62).
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_CHARS);
}

export interface NewKey {
  id: string;
  key: string;
  hash: string;
  displayPrefix: string;
}

export function generateKey(env: 'live' | 'test' = 'live'): NewKey {
  const random = randomBase62(RANDOM_CHARS);
  const body = `tai_${env}_${random}`;
  const key = body + checksum(body);
  return {
    id: randomUUID(),
    key,
    hash: hashKey(key),
    displayPrefix: `tai_${env}_${random.slice(0, 6)}`,
  };
}

/** Shape and checksum only: a key that fails here is never looked up. */
export function wellFormed(key: string): boolean {
  const m = KEY_PATTERN.exec(key);
  if (!m) return false;
  return checksum(key.slice(0, key.length - CHECKSUM_CHARS)) === m[3];
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return safeEqual(a, b, 'hex');
}

type CredentialHeaders = {
  'x-api-key'?: string | string[] | undefined;
  authorization?: string | undefined;
};

function headerKey(headers: CredentialHeaders): string | null {
  const header = headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  return value && value.trim() ? value.trim() : null;
}

function bearerKey(headers: CredentialHeaders): string | null {
  const auth = headers.authorization;
  return (auth && /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1]) || null;
}

/** The credential of a request: `X-API-Key`, else `Authorization: Bearer`. */
export function presentedKey(headers: CredentialHeaders): string | null {
  return headerKey(headers) ?? bearerKey(headers);
}

/**
 * `X-API-Key` sent more than once (Node joins the values with ", "; a key has no comma): refused,
 * never resolved, since nginx and other proxies may read only the first.
 */
export function repeatedKeyHeader(headers: CredentialHeaders): boolean {
  const header = headers['x-api-key'];
  return Array.isArray(header) ? header.length > 1 : header !== undefined && header.includes(',');
}

/** Two different keys in `X-API-Key` and `Authorization: Bearer`: refused, never resolved. */
export function conflictingKeys(headers: CredentialHeaders): boolean {
  if (headers.authorization === undefined || headers['x-api-key'] === undefined) return false;
  const a = headerKey(headers);
  const b = bearerKey(headers);
  return a !== null && b !== null && a !== b;
}

/**
 * A key's shape anywhere in a string (a path, a query, a log field): checksum not required, so a
 * key with a typo is caught too.
 */
const KEY_SHAPED = /tai_(?:live|test)_[0-9A-Za-z]{36}/g;

export function holdsKey(text: string): boolean {
  KEY_SHAPED.lastIndex = 0;
  return KEY_SHAPED.test(text);
}

/** `text` with every key-shaped string replaced by its environment and "[redacted]". */
export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPED, (k) => `${k.slice(0, 9)}[redacted]`);
}

/** Query parameters that look like a credential: refused, so keys never end up in URLs. */
export const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'key', 'access_token', 'token', 'x-api-key'];
