"""The RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) and
Retry-After (RFC 9110), read from an answer."""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import Dict, Mapping, Optional

from ._structured import BareItem, StructuredFieldError, parse_list


@dataclass(frozen=True)
class RateLimit:
    """The quota state of the latest answer: `policy` is the tier ("demo", "institutional",
    "enterprise"), `remaining` the requests left, `reset_seconds` until the window resets."""

    policy: str
    remaining: int
    reset_seconds: Optional[int] = None
    quota: Optional[int] = None
    window_seconds: Optional[int] = None


def _int(value: object) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_rate_limit(headers: Mapping[str, str]) -> Optional[RateLimit]:
    """The first policy of RateLimit with its quota from RateLimit-Policy; None when absent."""
    field = headers.get("ratelimit")
    if not field:
        return None
    try:
        members = parse_list(field)
        policies = parse_list(headers.get("ratelimit-policy") or "")
    except StructuredFieldError:
        return None
    if not members or not isinstance(members[0].value, str):
        return None
    name, params = members[0].value, members[0].params
    remaining = _int(params.get("r"))
    if remaining is None:
        return None
    policy: Dict[str, BareItem] = next((p.params for p in policies if p.value == name), {})
    return RateLimit(
        name, remaining, _int(params.get("t")), _int(policy.get("q")), _int(policy.get("w"))
    )


def retry_after_seconds(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After as seconds (delta-seconds or an HTTP-date); None when absent or unreadable."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        at = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


def wait_before_retry(headers: Mapping[str, str]) -> Optional[float]:
    """How long a refused (429/503) answer asks to wait: Retry-After, else the RateLimit reset
    when no request is left; None when the answer says neither."""
    after = retry_after_seconds(headers)
    if after is not None:
        return after
    state = read_rate_limit(headers)
    if state and state.remaining == 0 and state.reset_seconds is not None:
        return float(state.reset_seconds)
    return None
