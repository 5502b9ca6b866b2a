"""TaiClient: the operations of the API (generated in _operations.py) over httpx, with the key,
retries that honour Retry-After and RateLimit, problems raised as ApiError, and, when asked,
every answer's signature verified against the published keys."""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Dict, Iterator, Mapping, Optional

import httpx

from . import __version__
from ._operations import ExportFormat, Operations
from .errors import error_for
from .ratelimit import RateLimit, read_rate_limit, wait_before_retry
from .verify import JwkSet, SignatureError, verify_response

_ACCEPT: Dict[str, str] = {"csv": "text/csv", "ndjson": "application/x-ndjson"}


class TaiClient(Operations):
    """A client of the Tokenized Asset Intelligence API.

    api_key: sent as X-API-Key (default: $TAI_API_KEY). base_url: the deployment (default:
    $TAI_BASE_URL). retries: how often a 429 or 503 is retried when it says how long to wait, up
    to max_retry_after seconds. verify: check every answer's Content-Digest and signature
    (Ed25519, RFC 9421) against the JWK Set at /.well-known/jwks.json (or the pinned `jwks`)."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        retries: int = 2,
        max_retry_after: float = 60.0,
        verify: bool = False,
        jwks: Optional[Mapping[str, Any]] = None,
        timeout: float = 30.0,
        transport: Optional[httpx.BaseTransport] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        base = base_url or os.environ.get("TAI_BASE_URL")
        if not base:
            raise ValueError("no base URL: pass base_url or set TAI_BASE_URL")
        self.base_url = base.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("TAI_API_KEY")
        self.retries = retries
        self.max_retry_after = max_retry_after
        self.verifying = verify
        self._sleep = sleep
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            transport=transport,
            headers={"User-Agent": f"tai-client-python/{__version__}"},
        )
        self.keys = JwkSet.of(jwks) if jwks is not None else JwkSet(self._load_jwks)
        #: The RateLimit state of the latest answer (None before the first).
        self.rate_limit: Optional[RateLimit] = None
        #: The latest answer's Dataset-Version header: the release the answer comes from (the one
        #: served now, or the one a point-in-time read asked for), covered by its signature.
        self.served_dataset_version: Optional[str] = None
        #: The latest answer's X-Request-Id.
        self.request_id: Optional[str] = None

    def __enter__(self) -> "TaiClient":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _load_jwks(self) -> Mapping[str, Any]:
        res = self._http.get("/.well-known/jwks.json")
        if res.status_code != 200:
            raise SignatureError(f"/.well-known/jwks.json answered {res.status_code}")
        document = res.json()
        if not isinstance(document, dict):
            raise SignatureError("/.well-known/jwks.json is not a JWK Set")
        return document

    def get(self, path: str, params: Optional[Mapping[str, Any]] = None, accept: str = "application/json") -> httpx.Response:
        """GET any path of the API: the key sent, a 429/503 waited out as it asks (up to
        `retries` times), the answer verified when `verify` is on; a problem raises ApiError."""
        query = {k: str(v) for k, v in (params or {}).items() if v is not None}
        headers = {"Accept": accept}
        if self.api_key:
            headers["X-API-Key"] = self.api_key
        if self.verifying:
            # The digest covers the bytes as sent: ask for them uncompressed.
            headers["Accept-Encoding"] = "identity"
        attempt = 0
        while True:
            res = self._http.get(path, params=query, headers=headers)
            self.rate_limit = read_rate_limit(res.headers) or self.rate_limit
            self.request_id = res.headers.get("x-request-id")
            wait = wait_before_retry(res.headers) if res.status_code in (429, 503) else None
            if wait is not None and attempt < self.retries and wait <= self.max_retry_after:
                attempt += 1
                self._sleep(wait)
                continue
            break
        if self.verifying:
            verify_response(res.status_code, res.headers.multi_items(), res.content, self.keys)
        self.served_dataset_version = (
            res.headers.get("dataset-version") or self.served_dataset_version
        )
        if res.status_code >= 400:
            raise error_for(res, wait)
        return res

    def verify(self, response: httpx.Response) -> str:
        """Checks one answer's Content-Digest and signature against the published keys; returns
        the key id, raises SignatureError. The body must be as sent (ask with
        Accept-Encoding: identity)."""
        return verify_response(
            response.status_code, response.headers.multi_items(), response.content, self.keys
        )

    def _get_json(self, path: str, params: Dict[str, Any]) -> Any:
        return json.loads(self.get(path, params).content)

    def _get_text(self, path: str, format: ExportFormat, params: Dict[str, Any]) -> str:
        if format not in _ACCEPT:
            raise ValueError(f"format must be csv or ndjson, not {format!r}")
        return self.get(path, params, accept=_ACCEPT[format]).text

    def iter_ndjson(self, text: str) -> Iterator[Dict[str, Any]]:
        """The records of an NDJSON export, one dict per line."""
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)
