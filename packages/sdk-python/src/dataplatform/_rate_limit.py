"""The API key's rate limit, as the last answer with ``RateLimit-*`` headers told it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import httpx


@dataclass(frozen=True)
class RateLimitInfo:
    """Requests allowed per minute, left in the current window, and seconds until the window resets."""

    limit: int
    remaining: int
    reset_seconds: int


def read_rate_limit(headers: httpx.Headers) -> Optional[RateLimitInfo]:
    """Reads ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset``; None when one is missing."""
    limit = headers.get("ratelimit-limit")
    if limit is None:  # most answers: keys without a limit, and routes that are not rate limited
        return None
    try:
        return RateLimitInfo(
            limit=int(limit),
            remaining=int(headers["ratelimit-remaining"]),
            reset_seconds=int(headers["ratelimit-reset"]),
        )
    except (KeyError, ValueError):
        return None
