"""Verifying a signed answer: its Content-Digest (RFC 9530) and its RFC 9421 HTTP message
signature, checked with Ed25519 against the service's JWK Set (/.well-known/jwks.json).

The signature base is built as RFC 9421 section 2.5 defines it, from the components the
signature names in Signature-Input; any failure raises SignatureError (fail closed)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ._structured import StructuredFieldError, parse_dictionary

#: What a signed answer of this service covers (README "Verifying answers").
SERVICE_COMPONENTS = ("@status", "content-digest", "content-type", "dataset-version")

_DIGESTS = {"sha-256": hashlib.sha256, "sha-512": hashlib.sha512}


class SignatureError(Exception):
    """The answer is not signed, or its digest or signature does not verify."""


Headers = Union[Mapping[str, str], Iterable[Tuple[str, str]]]


@dataclass
class Message:
    """What a signature covers: the header fields (names any case; repeated ones in order), the
    status of a response, or the method and URL of a request."""

    headers: Sequence[Tuple[str, str]]
    status: Optional[int] = None
    method: Optional[str] = None
    url: Optional[str] = None

    @classmethod
    def of(
        cls,
        headers: Headers,
        *,
        status: Optional[int] = None,
        method: Optional[str] = None,
        url: Optional[str] = None,
    ) -> "Message":
        items = list(headers.items()) if isinstance(headers, Mapping) else list(headers)
        return cls([(str(k), str(v)) for k, v in items], status, method, url)

    def field(self, name: str) -> Optional[str]:
        """A field's value as RFC 9421 section 2.1 takes it: each value trimmed, joined by ", "."""
        values = [v.strip(" \t") for k, v in self.headers if k.lower() == name]
        return ", ".join(values) if values else None


def _derived(name: str, message: Message) -> str:
    if name == "@status":
        if message.status is None:
            raise SignatureError("@status is covered but the message is not a response")
        return f"{message.status:03d}"
    if message.method is None or message.url is None:
        raise SignatureError(f"{name} is covered but the message is not a request")
    url = urlsplit(message.url)
    if name == "@method":
        return message.method.upper()
    if name == "@scheme":
        return url.scheme.lower()
    if name == "@authority":
        host = (url.hostname or "").lower()
        default = {"http": 80, "https": 443}.get(url.scheme.lower())
        return host if url.port in (None, default) else f"{host}:{url.port}"
    if name == "@path":
        return url.path or "/"
    if name == "@query":
        return f"?{url.query}"
    if name == "@target-uri":
        return message.url
    if name == "@request-target":
        return (url.path or "/") + (f"?{url.query}" if url.query else "")
    raise SignatureError(f"the derived component {name} is not supported")


def signature_base(components: Sequence[str], signature_params: str, message: Message) -> bytes:
    """The signature base of RFC 9421 section 2.5 for plain component identifiers."""
    lines: List[str] = []
    for name in components:
        if name.startswith("@"):
            value = _derived(name, message)
        else:
            found = message.field(name)
            if found is None:
                raise SignatureError(f"the signed field {name} is missing from the answer")
            value = found
        if "\n" in value or "\r" in value:
            raise SignatureError(f"the value of {name} contains a line break")
        lines.append(f'"{name}": {value}')
    lines.append(f'"@signature-params": {signature_params}')
    try:
        return "\n".join(lines).encode("ascii")
    except UnicodeEncodeError as err:
        raise SignatureError("a signed value is not ASCII") from err


def check_content_digest(message: Message, body: bytes) -> None:
    """Every SHA-256 / SHA-512 digest of Content-Digest must equal the body's (RFC 9530)."""
    field = message.field("content-digest")
    if field is None:
        raise SignatureError("the answer has no Content-Digest")
    try:
        digests = parse_dictionary(field)
    except StructuredFieldError as err:
        raise SignatureError(f"Content-Digest is malformed: {err}") from err
    known = {alg: m for alg, m in digests.items() if alg in _DIGESTS}
    if not known:
        raise SignatureError("Content-Digest names no sha-256 or sha-512 digest")
    for alg, member in known.items():
        if not isinstance(member.value, bytes) or not hmac.compare_digest(
            member.value, _DIGESTS[alg](body).digest()
        ):
            raise SignatureError(f"the body does not match its Content-Digest ({alg})")


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class JwkSet:
    """The published keys, fetched once and kept; fetched again (at most every
    `refresh_seconds`) when a signature names a key id the kept set lacks. A key id still unknown
    then is refused: verification fails closed."""

    def __init__(
        self,
        load: Callable[[], Mapping[str, Any]],
        *,
        refresh_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self._refresh = refresh_seconds
        self._clock = clock
        self._keys: Optional[Dict[str, Mapping[str, Any]]] = None
        self._loaded_at = 0.0
        self._lock = threading.Lock()
        self.loads = 0

    @classmethod
    def of(cls, jwks: Mapping[str, Any]) -> "JwkSet":
        """A fixed set (pinned keys): never fetched."""
        return cls(lambda: jwks, refresh_seconds=float("inf"))

    def _fetch(self) -> None:
        document = self._load()
        keys = document.get("keys")
        if not isinstance(keys, list):
            raise SignatureError("the JWK Set has no keys array")
        self._keys = {k["kid"]: k for k in keys if isinstance(k, dict) and "kid" in k}
        self._loaded_at = self._clock()
        self.loads += 1

    def key(self, kid: str) -> Ed25519PublicKey:
        with self._lock:
            if self._keys is None:
                self._fetch()
            elif kid not in self._keys and self._clock() - self._loaded_at >= self._refresh:
                self._fetch()
            jwk = (self._keys or {}).get(kid)
        if jwk is None:
            raise SignatureError(f"the signature names key {kid!r}, which is not published")
        if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519" or not jwk.get("x"):
            raise SignatureError(f"key {kid!r} is not an Ed25519 key")
        try:
            return Ed25519PublicKey.from_public_bytes(_b64url(str(jwk["x"])))
        except ValueError as err:
            raise SignatureError(f"key {kid!r} is malformed") from err


def verify_message(
    message: Message,
    keys: JwkSet,
    *,
    required: Sequence[str] = (),
    label: Optional[str] = None,
    now: Optional[float] = None,
) -> str:
    """Checks the RFC 9421 signature of `message` (Ed25519); returns the key id that signed it.

    `required`: components the signature must cover. `label`: which signature of several
    (default: the only one, or the first that covers `required`)."""
    raw_input, raw_signature = message.field("signature-input"), message.field("signature")
    if not raw_input or not raw_signature:
        raise SignatureError("the answer is not signed")
    try:
        inputs, signatures = parse_dictionary(raw_input), parse_dictionary(raw_signature)
    except StructuredFieldError as err:
        raise SignatureError(f"Signature-Input or Signature is malformed: {err}") from err
    labels = [label] if label else list(inputs)
    for name in labels:
        member = inputs.get(name)
        if member is None or not isinstance(member.value, list):
            continue
        components = []
        for item, params in member.value:
            if not isinstance(item, str) or params:
                raise SignatureError(f"signature {name}: unsupported component {item!r}")
            components.append(item)
        if any(r not in components for r in required):
            continue
        kid, alg, expires = member.params.get("keyid"), member.params.get("alg"), member.params.get("expires")
        if not isinstance(kid, str):
            raise SignatureError(f"signature {name} names no key id")
        if alg is not None and alg != "ed25519":
            raise SignatureError(f"signature {name} uses {alg!r}, not ed25519")
        if isinstance(expires, int) and (now if now is not None else time.time()) > expires:
            raise SignatureError(f"signature {name} expired")
        signature = signatures.get(name)
        if signature is None or not isinstance(signature.value, bytes):
            raise SignatureError(f"Signature has no value for {name}")
        base = signature_base(components, member.text, message)
        try:
            keys.key(kid).verify(signature.value, base)
        except InvalidSignature as err:
            raise SignatureError(f"signature {name} does not verify with key {kid!r}") from err
        return kid
    raise SignatureError(
        f"no signature covers {', '.join(required)}" if required else "no signature to check"
    )


def verify_response(
    status: int, headers: Headers, body: bytes, keys: JwkSet, *, now: Optional[float] = None
) -> str:
    """One call for an answer of the service: Content-Digest against the body as sent, then the
    signature over @status, content-digest, content-type and dataset-version. Returns the key id;
    raises SignatureError otherwise."""
    message = Message.of(headers, status=status)
    check_content_digest(message, body)
    return verify_message(message, keys, required=SERVICE_COMPONENTS, now=now)
