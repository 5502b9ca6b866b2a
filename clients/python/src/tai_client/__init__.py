"""Python client of the Tokenized Asset Intelligence API."""

__version__ = "0.2.0"

from . import models  # noqa: E402
from .client import TaiClient  # noqa: E402
from .errors import ApiError, NotFoundError, RateLimitError  # noqa: E402
from .ratelimit import RateLimit  # noqa: E402
from .verify import JwkSet, Message, SignatureError, verify_message, verify_response  # noqa: E402

__all__ = [
    "ApiError",
    "JwkSet",
    "Message",
    "NotFoundError",
    "RateLimit",
    "RateLimitError",
    "SignatureError",
    "TaiClient",
    "__version__",
    "models",
    "verify_message",
    "verify_response",
]
