"""Retries against a flaky local server: what is retried, how often, and that a retry never writes twice."""

from __future__ import annotations

import asyncio

import pytest

from dataplatform import (
    APIConnectionError,
    AsyncDataPlatform,
    ConflictError,
    DataPlatform,
    InternalServerError,
    RateLimitError,
)

from .flaky_server import DROP, FlakyServer

# `Retry-After: 0` keeps the tests from sleeping while still taking the server-requested path.
NOW = {"retry-after": "0"}
DOC = {"_id": "a", "total": 1}


def client(server: FlakyServer, **options: object) -> DataPlatform:
    return DataPlatform(base_url=server.url, api_key="svc_test", **options)  # type: ignore[arg-type]


def test_a_write_retried_after_503s_sends_one_idempotency_key_and_request_id(flaky: FlakyServer) -> None:
    flaky.script += [(503, NOW, {"error": "down", "code": "cluster_unavailable"})] * 2 + [(201, {}, DOC)]
    with client(flaky) as dp:
        assert dp.data.create("orders", {"total": 1}) == DOC
    assert len(flaky.requests) == 3
    keys = {r.headers["idempotency-key"] for r in flaky.requests}
    ids = {r.headers["x-request-id"] for r in flaky.requests}
    assert len(keys) == 1 and len(ids) == 1
    assert all(r.body == b'{"total":1}' for r in flaky.requests)


def test_two_writes_get_two_idempotency_keys(flaky: FlakyServer) -> None:
    flaky.script += [(201, {}, DOC), (201, {}, DOC)]
    with client(flaky) as dp:
        dp.data.create("orders", {"total": 1})
        dp.data.create("orders", {"total": 1})
    assert flaky.requests[0].headers["idempotency-key"] != flaky.requests[1].headers["idempotency-key"]


def test_a_given_idempotency_key_is_sent_as_it_is(flaky: FlakyServer) -> None:
    flaky.script += [(201, {}, DOC)]
    with client(flaky) as dp:
        dp.data.create("orders", {"total": 1}, options={"idempotency_key": "order-42"})
    assert flaky.requests[0].headers["idempotency-key"] == "order-42"


def test_reads_carry_no_idempotency_key(flaky: FlakyServer) -> None:
    flaky.script += [(200, {}, DOC)]
    with client(flaky) as dp:
        dp.data.get("orders", "a")
    assert "idempotency-key" not in flaky.requests[0].headers


def test_gives_up_after_max_retries_with_the_last_error(flaky: FlakyServer) -> None:
    flaky.script += [(500, NOW, {"error": "boom", "code": "internal_error", "requestId": "req_x"})] * 3
    with client(flaky, max_retries=2) as dp, pytest.raises(InternalServerError) as caught:
        dp.data.get("orders", "a")
    assert len(flaky.requests) == 3
    assert caught.value.code == "internal_error" and caught.value.request_id == "req_x"


def test_a_final_conflict_is_not_retried(flaky: FlakyServer) -> None:
    flaky.script += [(409, NOW, {"error": "taken", "code": "conflict", "requestId": "r"}), (201, {}, DOC)]
    with client(flaky) as dp, pytest.raises(ConflictError):
        dp.data.create("orders", DOC)
    assert len(flaky.requests) == 1


def test_a_transient_conflict_is_retried(flaky: FlakyServer) -> None:
    flaky.script += [(409, NOW, {"error": "locked", "code": "lock_timeout", "requestId": "r"}), (201, {}, DOC)]
    with client(flaky) as dp:
        assert dp.data.create("orders", DOC) == DOC
    assert len(flaky.requests) == 2


def test_a_rate_limit_longer_than_max_retry_wait_raises_at_once(flaky: FlakyServer) -> None:
    flaky.script += [(429, {"retry-after": "60"}, {"error": "slow down", "code": "rate_limited", "requestId": "r"})]
    with client(flaky, max_retry_wait=1) as dp, pytest.raises(RateLimitError) as caught:
        dp.data.get("orders", "a")
    assert len(flaky.requests) == 1
    assert caught.value.response.headers["retry-after"] == "60"


def test_a_dropped_connection_is_retried(flaky: FlakyServer) -> None:
    flaky.script += [DROP, (200, {}, DOC)]
    # Backoff after a failure without an answer is at least 0.375 s; one retry keeps the test short.
    with client(flaky, max_retries=1) as dp:
        assert dp.data.get("orders", "a") == DOC
    assert len(flaky.requests) == 2


def test_client_errors_are_not_retried(flaky: FlakyServer) -> None:
    flaky.script += [(404, NOW, {"error": "no", "code": "not_found", "requestId": "r"}), (200, {}, DOC)]
    with client(flaky) as dp, pytest.raises(Exception):
        dp.data.get("orders", "a")
    assert len(flaky.requests) == 1


def test_a_refused_connection_to_the_default_address_names_the_option_and_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The discard port of loopback stands for the default address: nothing listens there.
    monkeypatch.setattr("dataplatform._base.DEFAULT_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.delenv("DATAPLATFORM_BASE_URL", raising=False)
    with DataPlatform(max_retries=0) as dp, pytest.raises(APIConnectionError) as caught:
        dp.data.get("orders", "a")
    assert "base_url" in str(caught.value) and "DATAPLATFORM_BASE_URL" in str(caught.value)
    assert caught.value.request_id.startswith("req_")


def test_a_refused_connection_to_a_given_address_asks_whether_the_server_runs() -> None:
    with DataPlatform(base_url="http://127.0.0.1:9", max_retries=0) as dp, pytest.raises(APIConnectionError) as caught:
        dp.data.get("orders", "a")
    assert "is the server running" in str(caught.value) and "DATAPLATFORM_BASE_URL" not in str(caught.value)


def test_the_async_client_retries_with_one_idempotency_key(flaky: FlakyServer) -> None:
    flaky.script += [(503, NOW, {"error": "down", "code": "cluster_unavailable"}), (201, {}, DOC)]

    async def main() -> object:
        async with AsyncDataPlatform(base_url=flaky.url, api_key="svc_test") as dp:
            return await dp.data.create("orders", {"total": 1})

    assert asyncio.run(main()) == DOC
    assert len({r.headers["idempotency-key"] for r in flaky.requests}) == 1
    assert len(flaky.requests) == 2
