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

/** The credential of a request: `X-API-Key`, else `Authorization: Bearer`. */
export function presentedKey(headers: {
  'x-api-key'?: string | string[] | undefined;
  authorization?: string | undefined;
}): string | null {
  const header = headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value && value.trim()) return value.trim();
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1]!;
  }
  return null;
}

/** Query parameters that look like a credential: refused, so keys never end up in URLs. */
export const KEY_QUERY_PARAMS = ['api_key', 'apikey', 'key', 'access_token', 'token', 'x-api-key'];
