"""``client.data.subscribe``: a collection's change stream that reconnects and resumes by itself.

The same rules as the Node client's ``client.data.subscribe`` (``resuming-event-stream.ts``): the stream is opened
again whenever it drops (a network failure, a silent connection, the server ending it, a 408, 429 or 5xx answer),
after a growing wait (0.5 s doubling up to 8 s, reset by each successful open), with the last event id, or the start
point the server sent, as ``Last-Event-ID``: nothing in between is missed and nothing is seen twice. An error before
the first open and any other error answer (400, 401, 403, 404: a bad filter, a paused or deleted key) end it with
that error; an ``error`` event other than ``gone`` (a reader too far behind) comes before the server closes the
stream, which then resumes; ``gone`` ends it with ``ChangeStreamGoneError``.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any, AsyncIterator, Dict, Iterator, List, Mapping, Optional

import httpx

from ._base import QueryValue, segment
from ._errors import APIConnectionError, APIError, DataPlatformError
from ._options import RequestOptions
from ._query import SqlParam
from ._retry import backoff_delay, is_retryable_status
from ._sse import ServerSentEvent

if TYPE_CHECKING:
    from ._async_api import AsyncAPIClient
    from ._sync_api import SyncAPIClient

#: One change of a collection, as a webhook receiver gets it: ``id`` (the event id to resume after), ``type``
#: (``document.created``, ``document.updated``, ``document.deleted``), ``collection``, ``documentId``, ``data`` (the
#: document after the change; for a deletion, as it was) and, for an update, ``previous``.
ChangeEvent = Dict[str, Any]


class ChangeStreamGoneError(DataPlatformError):
    """The server no longer keeps the event a subscription asked to resume after: reload, then subscribe from now."""

    def __init__(self, message: str, last_event_id: str) -> None:
        super().__init__(message)
        self.message = message
        #: The id the subscription tried to resume after.
        self.last_event_id = last_event_id


def _change_of(event: ServerSentEvent) -> Optional[ChangeEvent]:
    """The change an event carries; None for an ``error`` event the stream resumes after; raises for ``gone``."""
    try:
        body = json.loads(event.data)
    except ValueError as error:
        raise DataPlatformError(f"Could not parse event {event.id} of the change stream as JSON") from error
    if event.event != "error":
        return body  # type: ignore[no-any-return]
    if isinstance(body, dict) and body.get("code") == "gone":
        raise ChangeStreamGoneError(body.get("message") or f"Event {event.id} is no longer kept", event.id or "")
    return None


class _Subscription:
    """Where a subscription stands: the id to resume after, whether it ever opened, the drops since the last open."""

    def __init__(
        self, collection: str, where: Optional[str], params: Optional[List[SqlParam]], since: Optional[str]
    ) -> None:
        self.path = f"/api/v1/data/{segment(collection, 'collection')}/changes"
        self.query: Mapping[str, QueryValue] = {
            "where": where,
            "params": None if params is None else json.dumps(params),
        }
        self.last_event_id = since
        self.opened = False
        self.failures = 0

    def stream_arguments(self, options: Optional[RequestOptions]) -> Dict[str, Any]:
        """What ``stream_events`` is called with to open the stream (again)."""
        return {
            "query": self.query,
            "last_event_id": self.last_event_id,
            "options": options,
            "on_open": self._on_open,
            "on_resume_point": self._on_resume_point,
        }

    def take(self, event: ServerSentEvent) -> Optional[ChangeEvent]:
        """The change of an event (None for one to skip); the event's id is where to resume from now on."""
        change = _change_of(event)
        if event.id:
            self.last_event_id = event.id
        return change

    def retry_delay(self, error: BaseException) -> float:
        """Seconds to wait before opening again; raises ``error`` when it is not worth another try."""
        if not self._transient(error):
            raise error
        return self.next_delay()

    def next_delay(self) -> float:
        delay = backoff_delay(self.failures)
        self.failures += 1
        return delay

    def _on_open(self) -> None:
        self.opened = True
        self.failures = 0

    def _on_resume_point(self, event_id: str) -> None:
        self.last_event_id = event_id

    def _transient(self, error: BaseException) -> bool:
        """Only once opened, and only failures that may pass: no connection, a timeout, 408, 429, 5xx."""
        if not self.opened:
            return False
        if isinstance(error, (APIConnectionError, httpx.TransportError)):
            return True
        return isinstance(error, APIError) and error.status is not None and is_retryable_status(error.status, error.code)


def subscribe(
    client: "SyncAPIClient",
    collection: str,
    *,
    where: Optional[str],
    params: Optional[List[SqlParam]],
    since: Optional[str],
    options: Optional[RequestOptions],
) -> Iterator[ChangeEvent]:
    """The sync iterator behind ``DataPlatform.data.subscribe``."""
    state = _Subscription(collection, where, params, since)
    while True:
        delay = None
        events = client.stream_events(state.path, **state.stream_arguments(options))
        try:
            for event in events:
                change = state.take(event)
                if change is not None:
                    yield change
        except (APIError, httpx.TransportError) as error:
            delay = state.retry_delay(error)
        finally:
            events.close()
        time.sleep(state.next_delay() if delay is None else delay)


async def subscribe_async(
    client: "AsyncAPIClient",
    collection: str,
    *,
    where: Optional[str],
    params: Optional[List[SqlParam]],
    since: Optional[str],
    options: Optional[RequestOptions],
) -> AsyncIterator[ChangeEvent]:
    """The async iterator behind ``AsyncDataPlatform.data.subscribe``."""
    state = _Subscription(collection, where, params, since)
    while True:
        delay = None
        events = client.stream_events(state.path, **state.stream_arguments(options))
        try:
            async for event in events:
                change = state.take(event)
                if change is not None:
                    yield change
        except (APIError, httpx.TransportError) as error:
            delay = state.retry_delay(error)
        finally:
            await events.aclose()
        await asyncio.sleep(state.next_delay() if delay is None else delay)
