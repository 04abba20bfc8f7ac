"""The query builder compiles to the SQL helper with every value bound, as the Node client's does."""

from __future__ import annotations

import asyncio
import json

import pytest
import respx

from dataplatform import AsyncDataPlatform, DataPlatform, DataPlatformError

client = DataPlatform(base_url="http://h.test")


def test_conditions_order_limit_and_offset() -> None:
    query = (
        client.data.query("orders")
        .where("total", ">", 100)
        .where("customer.name", "like", "A%")
        .where("tag", "in", ["a", "b"])
        .where("n", "between", [1, 5])
        .where("gone", "is null")
        .order_by("-total", "name")
        .limit(10)
        .offset(20)
    )
    assert query.to_sql() == {
        "sql": 'SELECT * FROM "orders" WHERE ("total" > ?) AND ("customer"."name" LIKE ?) AND ("tag" IN (?, ?))'
        ' AND ("n" BETWEEN ? AND ?) AND ("gone" IS NULL) ORDER BY "total" DESC, "name" ASC LIMIT 10 OFFSET 20',
        "params": [100, "A%", "a", "b", 1, 5],
    }


def test_each_method_returns_a_new_builder() -> None:
    base = client.data.query("orders")
    narrowed = base.where("a", "=", 1)
    assert base.to_sql()["sql"] == 'SELECT * FROM "orders"'
    assert narrowed.to_sql()["params"] == [1]


def test_select_names_fields_by_dotted_path() -> None:
    assert client.data.query("o").select("total", "customer.name").to_sql()["sql"] == (
        'SELECT "total", "customer"."name" FROM "o"'
    )


def test_values_never_reach_the_sql_text() -> None:
    sql = client.data.query("o").where("a", "=", "'; DROP TABLE o; --").to_sql()
    assert "DROP" not in sql["sql"] and sql["params"] == ["'; DROP TABLE o; --"]


@pytest.mark.parametrize("field", ['a"b', "a..b", "", "a\nb"])
def test_fields_that_cannot_be_quoted_are_refused(field: str) -> None:
    with pytest.raises(DataPlatformError):
        client.data.query("o").where(field, "=", 1)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(DataPlatformError):
        client.data.query("not a name")
    with pytest.raises(DataPlatformError):
        client.data.query("o").limit(1001)
    with pytest.raises(DataPlatformError):
        client.data.query("o").where("a", "in", [])
    with pytest.raises(DataPlatformError):
        client.data.query("o").where("a", "between", [1])


@respx.mock
def test_count_drops_order_and_paging_and_reads_the_count() -> None:
    route = respx.post("http://h.test/api/v1/data/sql").respond(200, json={"data": [{"count": 3}], "query": {}})
    assert client.data.query("o").where("a", "=", 1).order_by("a").limit(1).count() == 3
    assert json.loads(route.calls.last.request.content) == {
        "sql": 'SELECT COUNT(*) FROM "o" WHERE ("a" = ?)',
        "params": [1],
    }


@respx.mock
def test_the_async_builder_is_awaitable() -> None:
    route = respx.post("http://h.test/api/v1/data/sql").respond(200, json={"data": [{"_id": "x"}], "query": {}})

    async def main() -> object:
        async with AsyncDataPlatform(base_url="http://h.test") as dp:
            return await dp.data.query("o").where("a", ">=", 2)

    assert asyncio.run(main()) == {"data": [{"_id": "x"}], "query": {}}
    assert json.loads(route.calls.last.request.content)["params"] == [2]


def test_group_by_compiles_fields_aggregates_having_and_order() -> None:
    query = (
        client.data.query("orders")
        .where("total", ">", 0)
        .group_by("status", "customer.name")
        .count("n")
        .sum("total")
        .count_distinct("customer.name")
        .having("n", ">=", 2)
        .order_by("-n", "status")
        .limit(5)
        .offset(1)
    )
    assert query.to_sql() == {
        "sql": 'SELECT "status", "customer"."name", COUNT(*) AS "n", SUM("total"), COUNT(DISTINCT "customer"."name")'
        ' FROM "orders" WHERE ("total" > ?) GROUP BY "status", "customer"."name" HAVING ("n" >= ?)'
        ' ORDER BY "n" DESC, "status" ASC LIMIT 5 OFFSET 1',
        "params": [0, 2],
    }


def test_group_by_without_fields_aggregates_every_match() -> None:
    assert client.data.query("o").group_by().min("a").max("a", "top").to_sql()["sql"] == (
        'SELECT MIN("a"), MAX("a") AS "top" FROM "o"'
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: client.data.query("o").group_by("s").count('a"b'),
        lambda: client.data.query("o").group_by().to_sql(),
        lambda: client.data.query("o").group_by().sum("a\nb"),
    ],
)
def test_group_by_refuses_what_cannot_be_sent(build: object) -> None:
    with pytest.raises(DataPlatformError):
        build()  # type: ignore[operator]


@respx.mock
def test_grouped_rows_come_back_as_the_server_keys_them() -> None:
    rows = [{"status": "paid", "COUNT(*)": 2}]
    route = respx.post("http://h.test/api/v1/data/sql").respond(200, json={"data": rows, "query": {}})
    assert client.data.query("o").group_by("status").count().execute()["data"] == rows
    assert json.loads(route.calls.last.request.content) == {
        "sql": 'SELECT "status", COUNT(*) FROM "o" GROUP BY "status"',
        "params": [],
    }
