"""Server-sent event streams: events are decoded and yielded as they arrive, resumable by their id."""

from __future__ import annotations

import asyncio

import respx

from dataplatform import AsyncDataPlatform, DataPlatform
from dataplatform._sse import EventDecoder

STREAM = (
    b": keep-alive\n\n"
    b"id: 1\nevent: delivery\ndata: {\"a\":1}\n\n"
    b"id: 2\nevent: delivery\ndata: line one\ndata: line two\n\n"
)
URL = "http://h.test/api/v1/data/webhooks/wh_1/events"


def test_the_decoder_skips_comments_and_joins_data_lines() -> None:
    decoder = EventDecoder()
    events = [e for line in STREAM.decode().split("\n") if (e := decoder.feed(line)) is not None]
    assert [(e.id, e.event, e.data) for e in events] == [
        ("1", "delivery", '{"a":1}'),
        ("2", "delivery", "line one\nline two"),
    ]
    assert decoder.last_event_id == "2"


def test_an_id_alone_is_a_resume_point_without_an_event() -> None:
    # A new change stream starts with its start id alone: no event, but where to resume from.
    decoder = EventDecoder()
    lines = "retry: 2000\nid: start_2026-01-01T00:00:00.000Z\n\n".split("\n")
    assert [e for line in lines if (e := decoder.feed(line)) is not None] == []
    assert decoder.last_event_id == "start_2026-01-01T00:00:00.000Z"
    assert decoder.feed("data: x") is None
    event = decoder.feed("")
    assert event is not None and event.id is None and event.data == "x"


@respx.mock
def test_a_stream_sends_last_event_id_and_yields_events() -> None:
    route = respx.get(URL).respond(200, content=STREAM, headers={"content-type": "text/event-stream"})
    events = list(DataPlatform(base_url="http://h.test").webhooks.stream("wh_1", last_event_id="0"))
    assert [e.id for e in events] == ["1", "2"]
    sent = route.calls.last.request.headers
    assert sent["last-event-id"] == "0" and sent["accept"] == "text/event-stream"


@respx.mock
def test_the_async_stream_yields_the_same_events() -> None:
    respx.get(URL).respond(200, content=STREAM, headers={"content-type": "text/event-stream"})

    async def main() -> list[str]:
        async with AsyncDataPlatform(base_url="http://h.test") as dp:
            return [e.data async for e in dp.webhooks.stream("wh_1")]

    assert asyncio.run(main()) == ['{"a":1}', "line one\nline two"]
