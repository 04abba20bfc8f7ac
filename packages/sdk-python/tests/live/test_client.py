"""The client against the reference server: documents, pages, the query builder, batches, imports, async."""

from __future__ import annotations

import asyncio
import json

import pytest

from dataplatform import (
    AsyncDataPlatform,
    BadRequestError,
    ConflictError,
    DataPlatform,
    NotFoundError,
    PreconditionFailedError,
)


def test_a_document_round_trip(client: DataPlatform, collection: str) -> None:
    created = client.data.create(collection, {"total": 42, "customer": {"name": "ada"}})
    assert client.data.get(collection, created["_id"])["total"] == 42
    assert client.data.update(collection, created["_id"], {"total": 43})["total"] == 43
    assert client.data.replace(collection, created["_id"], {"note": "x"}).get("total") is None
    assert client.data.delete(collection, created["_id"]) == {"_id": created["_id"], "deleted": True}
    with pytest.raises(NotFoundError) as caught:
        client.data.get(collection, created["_id"])
    assert caught.value.code == "not_found" and caught.value.request_id


def test_a_retried_write_is_stored_once(client: DataPlatform, collection: str) -> None:
    # The same Idempotency-Key twice, as a retry after a lost answer sends it: the server replays the first.
    first = client.data.create(collection, {"n": 1}, options={"idempotency_key": "k-" + collection})
    again = client.data.create(collection, {"n": 1}, options={"idempotency_key": "k-" + collection})
    assert again["_id"] == first["_id"]
    assert client.data.list(collection).total == 1


def test_a_duplicate_id_is_a_conflict_without_retries(client: DataPlatform, collection: str) -> None:
    client.data.create(collection, {"_id": "same"})
    with pytest.raises(ConflictError) as caught:
        client.data.create(collection, {"_id": "same"})
    assert caught.value.code == "conflict"


def test_a_conditional_write_goes_on_only_while_if_match_holds(client: DataPlatform, collection: str) -> None:
    doc = client.data.create(collection, {"n": 1})
    with pytest.raises(PreconditionFailedError) as caught:
        client.data.update(collection, doc["_id"], {"n": 2}, options={"if_match": '"an-older-version"'})
    assert caught.value.code == "precondition_failed"
    assert client.data.get(collection, doc["_id"])["n"] == 1
    assert client.data.update(collection, doc["_id"], {"n": 3}, options={"if_match": "*"})["n"] == 3


def test_iterating_a_list_walks_every_page(client: DataPlatform, collection: str) -> None:
    result = client.data.batch(
        {"operations": [{"op": "insert", "collection": collection, "data": {"n": n}} for n in range(25)]}
    )
    assert [r["status"] for r in result["results"]] == [201] * 25
    seen = [doc["n"] for doc in client.data.list(collection, limit=10, sort="n")]
    assert seen == list(range(25))
    assert len(list(client.data.list(collection, limit=10).iter_pages())) == 3


def test_the_query_builder_runs_on_the_sql_helper(client: DataPlatform, collection: str) -> None:
    for n in range(6):
        client.data.create(collection, {"n": n, "even": n % 2 == 0})
    query = client.data.query(collection).where("even", "=", True).order_by("-n")
    assert [row["n"] for row in query.execute()["data"]] == [4, 2, 0]
    assert query.count() == 3
    assert [row["n"] for row in query.select("n").limit(2)] == [4, 2]


def test_an_import_stores_every_row(client: DataPlatform, collection: str) -> None:
    lines = "".join(json.dumps({"n": n}) + "\n" for n in range(5)).encode()
    job = client.data.import_(collection, lines, format="ndjson")
    assert job["status"] == "succeeded"
    assert client.data.list(collection).total == 5


def test_a_bad_query_value_is_a_bad_request(client: DataPlatform, collection: str) -> None:
    with pytest.raises(BadRequestError) as caught:
        client.data.list(collection, limit=5000)
    assert caught.value.code == "validation_error"


def test_the_async_client_does_the_same(server: tuple[str, str], collection: str) -> None:
    async def main() -> None:
        async with AsyncDataPlatform(base_url=server[0], api_key=server[1]) as dp:
            created = await asyncio.gather(*(dp.data.create(collection, {"n": n}) for n in range(12)))
            assert len({doc["_id"] for doc in created}) == 12
            ns = sorted([doc["n"] async for doc in dp.data.list(collection, limit=5)])
            assert ns == list(range(12))
            assert await dp.data.query(collection).where("n", ">=", 10).count() == 2
            orders = dp.data.collection(collection)
            assert (await orders.get(created[0]["_id"]))["n"] == 0

    asyncio.run(main())
