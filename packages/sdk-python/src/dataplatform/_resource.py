"""The base classes of resources: a resource is a thin class over its client's request methods."""

from __future__ import annotations

from ._async_api import AsyncAPIClient
from ._sync_api import SyncAPIClient


class SyncResource:
    """A group of operations of the sync client."""

    def __init__(self, client: SyncAPIClient) -> None:
        self._client = client


class AsyncResource:
    """A group of operations of the async client."""

    def __init__(self, client: AsyncAPIClient) -> None:
        self._client = client
