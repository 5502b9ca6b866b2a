"""A refused request as an exception carrying its RFC 9457 problem."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

import httpx


class ApiError(Exception):
    """The service answered with a problem (RFC 9457).

    `type`, `title`, `detail` and `code` are the problem's; `request_id` is the answer's
    X-Request-Id (quote it to support); `problem` is the whole document."""

    def __init__(
        self,
        status: int,
        problem: Dict[str, Any],
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        self.status = status
        self.problem = problem
        self.type: Optional[str] = problem.get("type")
        self.title: Optional[str] = problem.get("title")
        self.detail: Optional[str] = problem.get("detail")
        self.code: Optional[str] = problem.get("code")
        self.request_id = request_id
        self.retry_after = retry_after
        summary = f"{status} {self.code or self.title or ''}: {self.detail or ''}".strip()
        super().__init__(summary + (f" (request {request_id})" if request_id else ""))

    @classmethod
    def from_response(cls, res: httpx.Response, retry_after: Optional[float] = None) -> "ApiError":
        try:
            problem = json.loads(res.content)
            if not isinstance(problem, dict):
                raise ValueError("not an object")
        except ValueError:
            problem = {"title": res.reason_phrase, "detail": res.text[:500]}
        return cls(res.status_code, problem, res.headers.get("x-request-id"), retry_after)


class NotFoundError(ApiError):
    """404: nothing answers to what was asked."""


class RateLimitError(ApiError):
    """429 still refused after the retries (or a Retry-After longer than the client waits)."""


def error_for(res: httpx.Response, retry_after: Optional[float] = None) -> ApiError:
    kind = {404: NotFoundError, 429: RateLimitError}.get(res.status_code, ApiError)
    return kind.from_response(res, retry_after)
