"""Request ids: a random prefix per process and a counter, the form the server keeps as it is and logs."""

from __future__ import annotations

import itertools
import secrets

_PREFIX = "req_" + secrets.token_hex(6)
_COUNTER = itertools.count(1)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _base36(value: int) -> str:
    text = ""
    while value:
        value, digit = divmod(value, 36)
        text = _DIGITS[digit] + text
    return text or "0"


def new_request_id() -> str:
    """A new ``X-Request-Id`` for one call; every attempt of the call sends the same id."""
    return _PREFIX + _base36(next(_COUNTER)).rjust(8, "0")
