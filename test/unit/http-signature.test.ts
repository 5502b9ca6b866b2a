// The signer against RFC 9421's own Ed25519 example (Appendix B.2.6) and RFC 9530's digest.
import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentDigest, signFields, signatureParams } from '../../src/lib/http-signature.ts';

// RFC 9421 Appendix B.1.4, "test-key-ed25519".
const TEST_KEY_ED25519 = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF
-----END PRIVATE KEY-----`;

describe('RFC 9421 signatures', () => {
  it('reproduces Appendix B.2.6 (Ed25519) byte for byte', () => {
    const { input, signature } = signFields(
      createPrivateKey(TEST_KEY_ED25519),
      'sig-b26',
      [
        ['date', 'Tue, 20 Apr 2021 02:07:55 GMT'],
        ['@method', 'POST'],
        ['@path', '/foo'],
        ['@authority', 'example.com'],
        ['content-type', 'application/json'],
        ['content-length', '18'],
      ],
      { created: 1618884473, keyid: 'test-key-ed25519' },
    );
    expect(input).toBe(
      'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    );
    expect(signature).toBe(
      'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:',
    );
  });

  it('refuses a key id that would need escaping', () => {
    expect(() => signatureParams(['@status'], { keyid: 'a"b' })).toThrow(/structured-field/);
  });
});

describe('RFC 9530 Content-Digest', () => {
  it('is the SHA-256 of the bytes, as in the RFC 9530 example', () => {
    // RFC 9530 §2 example: the content `{"hello": "world"}`.
    expect(contentDigest('{"hello": "world"}')).toBe(
      'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
    );
  });
});
