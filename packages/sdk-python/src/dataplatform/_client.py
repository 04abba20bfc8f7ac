"""The clients: ``DataPlatform`` (sync) and ``AsyncDataPlatform`` (async), each with every resource attached."""

from __future__ import annotations

from typing import Any, Mapping, Optional

import httpx

from ._async_api import AsyncAPIClient
from ._generated.root import AsyncResources, SyncResources
from ._sync_api import SyncAPIClient


class DataPlatform(SyncAPIClient, SyncResources):
    """The dataplatform API client.

    Options not given are read from DATAPLATFORM_API_KEY, DATAPLATFORM_TOKEN and DATAPLATFORM_BASE_URL (else
    ``http://localhost:5000``). ``timeout`` and ``max_retry_wait`` are in seconds.

    Example::

        client = DataPlatform(api_key="svc_...")
        order = client.data.get("orders", order_id)
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        token: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        max_retry_wait: Optional[float] = None,
        default_headers: Optional[Mapping[str, Optional[str]]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            token=token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            default_headers=default_headers,
            http_client=http_client,
        )
        self._attach_resources(self)

    def __enter__(self) -> DataPlatform:
        return self

    def with_options(self, **changes: Any) -> DataPlatform:
        """A client with these options changed and the same connection pool: ``client.with_options(timeout=5)``."""
        return DataPlatform(**{**self._options(), "http_client": self._http, **changes})


class AsyncDataPlatform(AsyncAPIClient, AsyncResources):
    """The dataplatform API client for asyncio, with the same options and resources as ``DataPlatform``.

    Example::

        async with AsyncDataPlatform() as client:
            async for order in client.data.list("orders"):
                print(order["_id"])
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        token: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        max_retry_wait: Optional[float] = None,
        default_headers: Optional[Mapping[str, Optional[str]]] = None,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            token=token,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            default_headers=default_headers,
            http_client=http_client,
        )
        self._attach_resources(self)

    async def __aenter__(self) -> AsyncDataPlatform:
        return self

    def with_options(self, **changes: Any) -> AsyncDataPlatform:
        """A client with these options changed and the same connection pool: ``client.with_options(timeout=5)``."""
        return AsyncDataPlatform(**{**self._options(), "http_client": self._http, **changes})
