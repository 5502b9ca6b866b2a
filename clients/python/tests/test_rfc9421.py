"""Verification against the RFCs' own examples: RFC 9421 Appendix B.2.6 (Ed25519, key
test-key-ed25519 of B.1.4) and RFC 9530's Content-Digest of {"hello": "world"}."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from tai_client.verify import JwkSet, Message, SignatureError, check_content_digest, verify_message

# RFC 9421 B.1.4 test-key-ed25519, as a JWK (its public key "JrQLj5P_..." in base64url).
TEST_KEY = {
    "kty": "OKP",
    "crv": "Ed25519",
    "kid": "test-key-ed25519",
    "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs",
}

# RFC 9421 B.2: the test request, with B.2.6's Signature-Input and Signature.
B26_HEADERS = [
    ("Host", "example.com"),
    ("Date", "Tue, 20 Apr 2021 02:07:55 GMT"),
    ("Content-Type", "application/json"),
    (
        "Content-Digest",
        "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:",
    ),
    ("Content-Length", "18"),
    (
        "Signature-Input",
        'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    ),
    (
        "Signature",
        "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:",
    ),
]
B2_BODY = b'{"hello": "world"}'


def b26(headers=B26_HEADERS, method="POST", url="https://example.com/foo?param=Value&Pet=dog"):
    return Message.of(headers, method=method, url=url)


def test_verifies_rfc9421_b26() -> None:
    assert verify_message(b26(), JwkSet.of({"keys": [TEST_KEY]})) == "test-key-ed25519"
    check_content_digest(b26(), B2_BODY)


@pytest.mark.parametrize(
    "changed",
    [
        {"method": "PUT"},
        {"url": "https://example.com/bar?param=Value&Pet=dog"},
        {"url": "https://example.org/foo?param=Value&Pet=dog"},
        {"headers": [(k, "19" if k == "Content-Length" else v) for k, v in B26_HEADERS]},
        {
            "headers": [
                (k, v.replace("created=1618884473", "created=1618884474")) for k, v in B26_HEADERS
            ]
        },
    ],
)
def test_refuses_b26_changed(changed) -> None:
    with pytest.raises(SignatureError, match="does not verify"):
        verify_message(b26(**changed), JwkSet.of({"keys": [TEST_KEY]}))


def test_fails_closed_on_an_unknown_key_id() -> None:
    other = dict(TEST_KEY, kid="another-key")
    keys = JwkSet.of({"keys": [other]})
    with pytest.raises(SignatureError, match="not published"):
        verify_message(b26(), keys)


def test_refetches_the_key_set_once_for_an_unknown_key_id_then_refuses() -> None:
    # A key published after the set was kept (a rotation): found once the kept set is old enough.
    served: List[Dict[str, Any]] = [{"keys": []}, {"keys": [TEST_KEY]}]
    now = [0.0]
    keys = JwkSet(lambda: served[min(keys.loads, 1)], refresh_seconds=60, clock=lambda: now[0])
    with pytest.raises(SignatureError, match="not published"):
        verify_message(b26(), keys)
    now[0] = 61.0
    assert verify_message(b26(), keys) == "test-key-ed25519"
    assert keys.loads == 2
    never = JwkSet(lambda: {"keys": []}, refresh_seconds=3600)
    with pytest.raises(SignatureError, match="not published"):
        verify_message(b26(), never)
    with pytest.raises(SignatureError, match="not published"):
        verify_message(b26(), never)
    assert never.loads == 1  # kept: not fetched again within refresh_seconds


def test_content_digest_rfc9530_example() -> None:
    message = Message.of(
        {"Content-Digest": "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"}, status=200
    )
    check_content_digest(message, B2_BODY)
    with pytest.raises(SignatureError, match="does not match"):
        check_content_digest(message, B2_BODY + b" ")


def test_unsigned_or_uncovered_is_refused() -> None:
    keys = JwkSet.of({"keys": [TEST_KEY]})
    with pytest.raises(SignatureError, match="not signed"):
        verify_message(Message.of({"Content-Type": "text/plain"}, status=200), keys)
    with pytest.raises(SignatureError, match="no signature covers @status"):
        verify_message(b26(), keys, required=["@status"])
