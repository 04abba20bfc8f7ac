"""When to retry and how long to wait: the same rules as the Node client (docs/python.md, "Retries")."""

from __future__ import annotations

import email.utils
import random
import time
from typing import Optional

import httpx

#: 409 codes no retry can change: a duplicate id stays a duplicate, a reused Idempotency-Key stays mismatched (the
#: retry carries the same key), an aborted transaction failed on its own operations. Other 409s are transient.
FINAL_CONFLICTS = frozenset({"conflict", "idempotency_mismatch", "transaction_aborted"})

#: The longest server-requested wait sat through by default, in seconds: covers the API's ``Retry-After: 60``.
MAX_RETRY_WAIT = 60.0


def is_retryable_status(status: int, code: object) -> bool:
    """Whether an error answer is worth another attempt: 408, 409 (not its final codes), 429 and 5xx."""
    if status == 409:
        return not (isinstance(code, str) and code in FINAL_CONFLICTS)
    return status in (408, 429) or status >= 500


def server_retry_delay(headers: httpx.Headers, now: Optional[float] = None) -> Optional[float]:
    """The wait the server asked for in seconds: ``retry-after-ms``, else ``Retry-After`` (seconds or HTTP date)."""
    ms = headers.get("retry-after-ms", "").strip()
    if ms:
        try:
            value = float(ms)
            if value >= 0:
                return value / 1000
        except ValueError:
            pass
    after = headers.get("retry-after", "").strip()
    if not after:
        return None
    try:
        seconds = float(after)
        return seconds if seconds >= 0 else None
    except ValueError:
        pass
    try:
        date = email.utils.parsedate_to_datetime(after)
    except (TypeError, ValueError):
        return None
    return max(0.0, float(date.timestamp()) - (time.time() if now is None else now))


def backoff_delay(retry: int, jitter: Optional[float] = None) -> float:
    """Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to a quarter."""
    seconds = min(0.5 * 2.0**retry, 8.0)
    return seconds * (1 - (random.random() if jitter is None else jitter) * 0.25)


def retry_delay(retry: int, headers: Optional[httpx.Headers], max_wait: float = MAX_RETRY_WAIT) -> Optional[float]:
    """Seconds before retry number ``retry`` (0-based); None means do not retry (the server asked for too long)."""
    asked = server_retry_delay(headers) if headers is not None else None
    if asked is None:
        return backoff_delay(retry)
    return asked if asked <= max_wait else None
