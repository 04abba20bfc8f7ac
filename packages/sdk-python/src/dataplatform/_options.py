"""Per-call options, and the client options read from the environment when not given."""

from __future__ import annotations

import os
from typing import Mapping, Optional

from typing_extensions import TypedDict

#: The base address used when neither the ``base_url`` option nor DATAPLATFORM_BASE_URL is set.
DEFAULT_BASE_URL = "http://localhost:5000"
#: Seconds to wait for each attempt unless the ``timeout`` option says otherwise.
DEFAULT_TIMEOUT = 60.0
#: Retries after the first attempt unless the ``max_retries`` option says otherwise.
DEFAULT_MAX_RETRIES = 2


class RequestOptions(TypedDict, total=False):
    """Options of one call; each overrides the client's own for that call only."""

    #: Extra headers; ``None`` removes one the client would send.
    headers: Mapping[str, Optional[str]]
    #: Seconds to wait for each attempt.
    timeout: float
    #: Retries after the first attempt.
    max_retries: int
    #: Longest server-requested (``Retry-After``) wait sat through, in seconds.
    max_retry_wait: float
    #: The ``Idempotency-Key`` of a write; a random one is sent when left out.
    idempotency_key: str
    #: ``If-Match`` of a write to a document (PUT, PATCH, DELETE; a batch operation takes ``ifMatch``): the ``ETag``
    #: it was read with. The write then happens only if the document is still that version, else
    #: ``PreconditionFailedError`` (412) and nothing is written.
    if_match: str


def env(name: str) -> Optional[str]:
    """An environment variable, with an empty value read as unset."""
    value = os.environ.get(name, "").strip()
    return value or None
