"""``client.data.subscribe`` against the reference server: changes as they happen, resumed after a dropped stream."""

from __future__ import annotations

import asyncio
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator, List, Optional

import httpx
import pytest

from dataplatform import AsyncDataPlatform, BadRequestError, ChangeStreamGoneError, DataPlatform


class StreamProxy:
    """Forwards change streams to the reference server; with ``cut``, drops the first right after its start id."""

    def __init__(self, upstream: str, cut: bool) -> None:
        self.upstream = upstream
        #: The Last-Event-ID of every change stream opened through the proxy, in order.
        self.resumed_from: List[Optional[str]] = []
        #: Set once the first stream sent its start id (and, with ``cut``, was dropped): whatever is written from
        #: now on is a change the subscription must see.
        self.opened = threading.Event()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: Any) -> None:
                pass

            def do_GET(self) -> None:
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                proxy.resumed_from.append(self.headers.get("last-event-id"))
                first = len(proxy.resumed_from) == 1
                with httpx.stream("GET", proxy.upstream + self.path, headers=headers, timeout=None) as answer:
                    self.send_response(answer.status_code)
                    self.send_header("content-type", answer.headers.get("content-type", "text/plain"))
                    self.send_header("connection", "close")
                    self.end_headers()
                    for line in answer.iter_lines():
                        self.wfile.write((line + "\n").encode())
                        self.wfile.flush()
                        if first and line == "" and not proxy.opened.is_set():
                            proxy.opened.set()
                            if cut:
                                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxies(server: tuple[str, str]) -> Iterator[Callable[[bool], StreamProxy]]:
    """Makes stream proxies to the reference server (``cut`` or not), closed after the test."""
    made: List[StreamProxy] = []

    def make(cut: bool) -> StreamProxy:
        made.append(StreamProxy(server[0], cut))
        return made[-1]

    yield make
    for proxy in made:
        proxy.close()


def test_subscribe_resumes_after_a_drop_without_a_gap_or_a_duplicate(
    proxies: Callable[[bool], StreamProxy], client: DataPlatform, server: tuple[str, str], collection: str
) -> None:
    proxy = proxies(True)
    received: "queue.Queue[Any]" = queue.Queue()

    def read() -> None:
        with DataPlatform(base_url=proxy.url, api_key=server[1]) as reader:
            try:
                for change in reader.data.subscribe(collection):
                    received.put(change)
                    if change["data"]["n"] == 3:
                        return
            except Exception as error:  # handed to the test, which fails with it
                received.put(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert proxy.opened.wait(10), "the change stream never opened"
    # Written while the stream is cut: the client resumes from the start id it was sent, and misses none of them.
    client.data.create(collection, {"n": 1})
    client.data.create(collection, {"n": 2})
    changes = [received.get(timeout=15) for _ in range(2)]
    client.data.create(collection, {"n": 3})
    changes.append(received.get(timeout=15))
    reader.join(10)
    for change in changes:
        if isinstance(change, Exception):
            raise change
    assert [change["data"]["n"] for change in changes] == [1, 2, 3]
    assert [change["type"] for change in changes] == ["document.created"] * 3
    assert received.empty()
    first, again = proxy.resumed_from[:2]
    assert first is None
    assert again is not None and again.startswith("start_")


def test_the_async_subscribe_filters_and_starts_after_since(
    proxies: Callable[[bool], StreamProxy], server: tuple[str, str], collection: str
) -> None:
    forwarding = proxies(False)
    # A stream of the paid orders only; then another, started after the first of them (kept from the first stream).
    async def main() -> List[Any]:
        async with AsyncDataPlatform(base_url=server[0], api_key=server[1]) as dp:
            async with AsyncDataPlatform(base_url=forwarding.url, api_key=server[1]) as through:
                changes = through.data.subscribe(collection, where="status = ?", params=["paid"])
                opening = asyncio.ensure_future(changes.__anext__())
                assert await asyncio.get_running_loop().run_in_executor(None, forwarding.opened.wait, 10)
                await dp.data.create(collection, {"n": 0, "status": "pending"})
                await dp.data.create(collection, {"n": 1, "status": "paid"})
                first = await asyncio.wait_for(opening, 15)
                await changes.aclose()  # type: ignore[attr-defined]
            await dp.data.create(collection, {"n": 2, "status": "pending"})
            await dp.data.create(collection, {"n": 3, "status": "paid"})
            later = []
            async for change in dp.data.subscribe(collection, where="status = ?", params=["paid"], since=first["id"]):
                later.append(change)
                break
            return [first, *later]

    first, later = asyncio.run(main())
    assert first["type"] == "document.created"
    assert first["data"]["n"] == 1
    assert later["data"]["n"] == 3


def test_an_unknown_since_is_gone_and_a_bad_filter_is_refused(client: DataPlatform, collection: str) -> None:
    with pytest.raises(ChangeStreamGoneError) as gone:
        next(iter(client.data.subscribe(collection, since="evt_not_kept")))
    assert gone.value.last_event_id == "evt_not_kept"
    with pytest.raises(BadRequestError) as refused:
        next(iter(client.data.subscribe(collection, where="status = = 1")))
    assert refused.value.code == "invalid_sql"
