"""Lists walk their pages: ``for doc in client.data.list(...)`` and ``async for`` in the async client."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List

import httpx
import pytest
import respx

from dataplatform import AsyncDataPlatform, DataPlatform, DataPlatformError

DOCS = [{"_id": f"d{i}"} for i in range(7)]
URL = "http://h.test/api/v1/data/orders"


def pages(request: httpx.Request) -> httpx.Response:
    """A server over DOCS that honours limit and skip, as the API does."""
    limit = int(request.url.params.get("limit", "50"))
    skip = int(request.url.params.get("skip", "0"))
    return httpx.Response(200, json={"data": DOCS[skip:skip + limit], "total": len(DOCS), "limit": limit, "skip": skip})


@respx.mock
def test_iterating_a_list_walks_every_page_with_the_same_query() -> None:
    route = respx.get(URL).mock(side_effect=pages)
    ids = [doc["_id"] for doc in DataPlatform(base_url="http://h.test").data.list("orders", limit=3, sort="-total")]
    assert ids == [d["_id"] for d in DOCS]
    assert [c.request.url.params["skip"] for c in route.calls] == ["0", "3", "6"]
    assert {c.request.url.params["sort"] for c in route.calls} == {"-total"}


@respx.mock
def test_the_first_page_is_there_without_iterating() -> None:
    route = respx.get(URL).mock(side_effect=pages)
    page = DataPlatform(base_url="http://h.test").data.list("orders", limit=5)
    assert (len(page.data), page.total, page.skip, page.has_next_page()) == (5, 7, 0, True)
    last = page.get_next_page()
    assert (len(last.data), last.has_next_page()) == (2, False)
    with pytest.raises(DataPlatformError):
        last.get_next_page()
    assert len(route.calls) == 2


@respx.mock
def test_a_list_answering_only_data_and_total_takes_its_place_from_the_query() -> None:
    usage: List[Dict[str, Any]] = [{"status": i} for i in range(5)]

    def answer(request: httpx.Request) -> httpx.Response:
        skip, limit = int(request.url.params["skip"]), int(request.url.params["limit"])
        return httpx.Response(200, json={"data": usage[skip:skip + limit], "total": len(usage)})

    respx.get("http://h.test/api/keys/k1/usage").mock(side_effect=answer)
    entries = list(DataPlatform(base_url="http://h.test").keys.usage("k1", limit=2))
    assert [e["status"] for e in entries] == [0, 1, 2, 3, 4]


@respx.mock
def test_an_empty_page_ends_the_walk_even_when_total_says_more() -> None:
    respx.get(URL).respond(200, json={"data": [], "total": 10, "limit": 50, "skip": 0})
    assert list(DataPlatform(base_url="http://h.test").data.list("orders")) == []


@respx.mock
def test_async_for_walks_every_page_and_await_gives_the_first() -> None:
    respx.get(URL).mock(side_effect=pages)

    async def main() -> None:
        async with AsyncDataPlatform(base_url="http://h.test") as client:
            ids = [doc["_id"] async for doc in client.data.list("orders", limit=2)]
            assert ids == [d["_id"] for d in DOCS]
            first = await client.data.list("orders", limit=4)
            assert [d["_id"] for d in first.data] == ["d0", "d1", "d2", "d3"]
            second = await first.get_next_page()
            assert [d["_id"] for d in second.data] == ["d4", "d5", "d6"]
            pages_seen = [len(p.data) async for p in first.iter_pages()]
            assert pages_seen == [4, 3]

    asyncio.run(main())
