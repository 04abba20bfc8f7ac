"""Verifies webhook deliveries: ``from dataplatform.webhooks import verify``.

Follows spec/webhooks/README.md in its order (presence, format, age, then each signature scheme present), so it
gives every vector of spec/webhooks/vectors.json its expected result.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import time
from typing import List, Mapping, Optional, Sequence, Union

from typing_extensions import Literal

__all__ = ["verify", "WebhookVerificationError", "DEFAULT_TOLERANCE_SECONDS"]

#: How far, in seconds, a delivery's timestamps may be from now in either direction.
DEFAULT_TOLERANCE_SECONDS = 300

ErrorCode = Literal[
    "missing_header",
    "malformed_header",
    "invalid_signature",
    "timestamp_too_old",
    "timestamp_in_future",
    "invalid_secret",
]
#: A request's headers: any mapping (names in any case), a value a string or, for a repeated header, a list.
Headers = Mapping[str, Union[str, Sequence[str]]]

_HEX = re.compile(r"^[0-9a-fA-F]{64}$")
_BASE64_SHA256 = re.compile(r"^[A-Za-z0-9+/]{43}=$")
_SECONDS = re.compile(r"^[0-9]{1,12}$")


class WebhookVerificationError(Exception):
    """A delivery that failed verification; ``code`` names the check, ``header`` the header it read."""

    def __init__(self, code: ErrorCode, message: str, header: Optional[str] = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.header = header


def _raw(headers: Headers, name: str) -> Union[str, Sequence[str], None]:
    getter = getattr(headers, "get_list", None)  # httpx.Headers keeps repeated headers apart
    if callable(getter):
        values: List[str] = getter(name)
        return values if len(values) > 1 else (values[0] if values else None)
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _single(headers: Headers, name: str) -> Optional[str]:
    value = _raw(headers, name)
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip() or None
    distinct = {each.strip() for each in value if each.strip()}
    if len(distinct) > 1:
        raise WebhookVerificationError("malformed_header", f"{name} was sent more than once with different values", name)
    return next(iter(distinct), None)


def _list(headers: Headers, name: str, separator: str) -> Optional[str]:
    value = _raw(headers, name)
    if value is None:
        return None
    text = value if isinstance(value, str) else separator.join(value)
    return text if text.strip() else None


def _seconds(value: str, name: str) -> int:
    if not _SECONDS.match(value):
        raise WebhookVerificationError("malformed_header", f"{name} must be Unix time in whole seconds", name)
    return int(value)


def _hex_signatures(value: str) -> List[str]:
    signatures = [each.strip() for each in value.split(",") if each.strip()]
    if not signatures or not all(_HEX.match(each) for each in signatures):
        raise WebhookVerificationError(
            "malformed_header",
            "X-Webhook-Signature must be 64 hex digits (HMAC-SHA256), or several separated by commas",
            "x-webhook-signature",
        )
    return signatures


def _standard_signatures(value: str) -> List[str]:
    signatures: List[str] = []
    for spaced in value.split(" "):
        # HTTP libraries join a repeated header with ", ", which leaves a comma after all but the last entry.
        entry = spaced[:-1] if spaced.endswith(",") and spaced.find(",") < len(spaced) - 1 else spaced
        if entry == "":
            continue
        version, comma, signature = entry.partition(",")
        if not comma or not version or (version == "v1" and not _BASE64_SHA256.match(signature)):
            raise WebhookVerificationError(
                "malformed_header",
                "webhook-signature must be space-separated entries of the form v1,<base64 of 32 bytes>",
                "webhook-signature",
            )
        if version == "v1":
            signatures.append(signature)
    return signatures


def _check_age(timestamp: int, now: int, tolerance: float, name: str) -> None:
    age = now - timestamp
    if age > tolerance:
        raise WebhookVerificationError("timestamp_too_old", f"{name} is {age} s old, more than {tolerance} s", name)
    if -age > tolerance:
        raise WebhookVerificationError(
            "timestamp_in_future", f"{name} is {-age} s ahead of this clock, more than {tolerance} s", name
        )


def _standard_key(secret: str) -> Optional[bytes]:
    text = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return key or None


def _any_equal(expected: Sequence[str], given: Sequence[str]) -> bool:
    found = False
    for a in expected:
        for b in given:
            # Every pair is compared, in constant time each, so the time says nothing about which matched.
            found = hmac.compare_digest(a.encode(), b.encode()) or found
    return found


def verify(
    body: Union[bytes, str],
    headers: Headers,
    secret: Union[str, Sequence[str]],
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> None:
    """Returns when every signature scheme present checks out; otherwise raises WebhookVerificationError.

    ``body`` is the raw body exactly as received, never a parsed object; ``secret`` is the subscription's secret
    (``whsec_...``), or several while one rotates; ``now`` (Unix seconds) replaces the clock, for tests.
    """
    raw = body.encode() if isinstance(body, str) else bytes(body)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    hex_header = _list(headers, "x-webhook-signature", ",")
    standard_header = _list(headers, "webhook-signature", " ")
    if hex_header is None and standard_header is None:
        raise WebhookVerificationError(
            "missing_header", "neither X-Webhook-Signature nor webhook-signature is present", "x-webhook-signature"
        )
    standard = None
    if standard_header is not None:
        message_id = _single(headers, "webhook-id")
        stamp = _single(headers, "webhook-timestamp")
        if message_id is None or stamp is None:
            missing = "webhook-id" if message_id is None else "webhook-timestamp"
            raise WebhookVerificationError("missing_header", f"webhook-signature is present but {missing} is not", missing)
        standard = (message_id, stamp, _seconds(stamp, "webhook-timestamp"), _standard_signatures(standard_header))
    plain_stamp = _single(headers, "x-webhook-timestamp")
    plain_seconds = _seconds(plain_stamp, "x-webhook-timestamp") if plain_stamp is not None else None
    hex_signatures = _hex_signatures(hex_header) if hex_header is not None else None

    clock = int(time.time() if now is None else now)
    if standard is not None:
        _check_age(standard[2], clock, tolerance_seconds, "webhook-timestamp")
    if plain_seconds is not None:
        _check_age(plain_seconds, clock, tolerance_seconds, "x-webhook-timestamp")

    if hex_signatures is not None:
        expected = [hmac.new(s.encode(), raw, hashlib.sha256).hexdigest() for s in secrets]
        if not _any_equal(expected, [each.lower() for each in hex_signatures]):
            raise WebhookVerificationError("invalid_signature", "no X-Webhook-Signature matches", "x-webhook-signature")
    if standard is not None:
        message_id, stamp, _, signatures = standard
        keys = [key for key in map(_standard_key, secrets) if key is not None]
        if not keys:
            raise WebhookVerificationError(
                "invalid_secret", "no secret is a Standard Webhooks key (base64 after whsec_)", "webhook-signature"
            )
        signed = f"{message_id}.{stamp}.".encode() + raw
        expected = [base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode() for key in keys]
        if not _any_equal(expected, signatures):
            raise WebhookVerificationError("invalid_signature", "no webhook-signature v1 entry matches", "webhook-signature")
