"""The asynchronous transport: the same calls as _sync_api.py over an httpx.AsyncClient."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncGenerator, AsyncIterator, Callable, Mapping, Optional

import httpx

from ._base import NOT_GIVEN, BaseClient, Content, Prepared, QueryValue, parse_json
from ._options import RequestOptions
from ._pagination import AsyncPage, AsyncPager
from ._sse import EventDecoder, ServerSentEvent


class AsyncAPIClient(BaseClient):
    """Sends calls for the async resources; ``AsyncDataPlatform`` adds the resources themselves."""

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
        )
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(follow_redirects=False)

    async def close(self) -> None:
        """Closes the connection pool (unless it was passed in as ``http_client``)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self: Any) -> Any:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def request_raw(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = NOT_GIVEN,
        content: Optional[Content] = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        options: Optional[RequestOptions] = None,
    ) -> httpx.Response:
        """Sends one call with retries and returns its (read) answer; an error answer raises its APIError."""
        prepared = self._prepare(
            self._http, method, path, query=query, body=body, content=content, headers=headers, options=options
        )
        return await self._send(prepared, stream=False)

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = NOT_GIVEN,
        content: Optional[Content] = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        """Sends one call with retries and parses its JSON answer, e.g. a route this client does not wrap yet."""
        return parse_json(
            await self.request_raw(
                method, path, query=query, body=body, content=content, headers=headers, options=options
            )
        )

    def get_page(
        self, path: str, *, query: Mapping[str, QueryValue], options: Optional[RequestOptions] = None
    ) -> AsyncPager[Any]:
        """A list route: await it for the page at ``skip``, or ``async for`` over every item of every page."""
        limit = query.get("limit")

        async def fetch(skip: int) -> AsyncPage[Any]:
            body = await self.request("GET", path, query={**query, "skip": skip}, options=options)
            return AsyncPage(body, skip, limit if isinstance(limit, int) else None, fetch)

        skip = query.get("skip")
        return AsyncPager(lambda: fetch(skip if isinstance(skip, int) else 0))

    async def stream_events(
        self,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        last_event_id: Optional[str] = None,
        options: Optional[RequestOptions] = None,
        on_open: Optional[Callable[[], None]] = None,
        on_resume_point: Optional[Callable[[str], None]] = None,
    ) -> AsyncGenerator[ServerSentEvent, None]:
        """GETs a server-sent event stream and yields its events; never retried: resume with ``last_event_id``.

        ``on_open`` is called once the server accepted the stream; ``on_resume_point`` with every id the server
        sends, an event's or one alone (a new stream's start point, to resume from before any event arrives).
        """
        headers = {"accept": "text/event-stream", "last-event-id": last_event_id}
        opts: RequestOptions = {**(options or {}), "max_retries": 0}
        prepared = self._prepare(
            self._http, "GET", path, query=query, body=NOT_GIVEN, content=None, headers=headers, options=opts
        )
        async with self._open(prepared) as response:
            if on_open is not None:
                on_open()
            decoder = EventDecoder()
            async for line in response.aiter_lines():
                event = decoder.feed(line)
                if event is not None:
                    yield event
                elif on_resume_point is not None and line == "" and decoder.last_event_id is not None:
                    on_resume_point(decoder.last_event_id)

    @asynccontextmanager
    async def _open(self, prepared: Prepared) -> AsyncIterator[httpx.Response]:
        response = await self._send(prepared, stream=True)
        try:
            yield response
        finally:
            await response.aclose()

    async def _send(self, prepared: Prepared, *, stream: bool) -> httpx.Response:
        retry = 0
        while True:
            try:
                response = await self._http.send(prepared.request, stream=stream)
            except httpx.TransportError as error:
                failure = self._connection_error(error, prepared.request_id)
                if retry >= prepared.max_retries:
                    raise failure from error
                await asyncio.sleep(self._judge_no_answer(retry))
                retry += 1
                continue
            self._seen(response)
            if response.status_code < 400:
                return response
            if stream:
                await response.aread()
                await response.aclose()
            delay = self._judge(response, prepared, retry)
            await asyncio.sleep(delay or 0)
            retry += 1
