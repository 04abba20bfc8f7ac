"""Client options and their environment fallbacks, as the Node client reads them (respx mocks the HTTP)."""

from __future__ import annotations

import httpx
import pytest
import respx

from dataplatform import DataPlatform, DataPlatformError


@pytest.fixture(autouse=True)
def no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATAPLATFORM_API_KEY", "DATAPLATFORM_TOKEN", "DATAPLATFORM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_reads_key_token_and_address_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATAPLATFORM_API_KEY", "svc_env")
    monkeypatch.setenv("DATAPLATFORM_TOKEN", "jwt_env")
    monkeypatch.setenv("DATAPLATFORM_BASE_URL", "http://example.test:8080/")
    with respx.mock:
        route = respx.get("http://example.test:8080/api/v1/data/orders/a").respond(200, json={"_id": "a"})
        DataPlatform().data.get("orders", "a")
    sent = route.calls.last.request.headers
    assert sent["x-api-key"] == "svc_env" and sent["authorization"] == "Bearer jwt_env"


def test_options_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATAPLATFORM_API_KEY", "svc_env")
    monkeypatch.setenv("DATAPLATFORM_BASE_URL", "http://env.test")
    client = DataPlatform(api_key="svc_option", base_url="http://option.test")
    assert client.api_key == "svc_option" and client.base_url == "http://option.test"


def test_the_default_address_is_localhost_5000() -> None:
    assert DataPlatform().base_url == "http://localhost:5000"


def test_an_address_without_a_scheme_is_refused() -> None:
    with pytest.raises(DataPlatformError, match="base_url"):
        DataPlatform(base_url="localhost:5000")


@respx.mock
def test_every_call_sends_its_own_request_id_and_accepts_json() -> None:
    route = respx.get("http://h.test/api/v1/data/orders/a").respond(200, json={})
    client = DataPlatform(base_url="http://h.test")
    client.data.get("orders", "a")
    client.data.get("orders", "a")
    first, second = (call.request.headers for call in route.calls)
    assert first["x-request-id"] != second["x-request-id"]
    assert first["accept"] == "application/json"


@respx.mock
def test_per_call_headers_add_and_remove() -> None:
    route = respx.get("http://h.test/api/v1/data/orders/a").respond(200, json={})
    client = DataPlatform(base_url="http://h.test", api_key="svc_k", default_headers={"x-team": "a"})
    client.data.get("orders", "a", options={"headers": {"x-api-key": None, "x-cluster-id": "c1"}})
    sent = route.calls.last.request.headers
    assert "x-api-key" not in sent and sent["x-cluster-id"] == "c1" and sent["x-team"] == "a"


@respx.mock
def test_path_segments_are_percent_encoded() -> None:
    route = respx.get("http://h.test/api/v1/data/orders/a%2Fb%20c").respond(200, json={})
    DataPlatform(base_url="http://h.test").data.get("orders", "a/b c")
    assert route.called


def test_an_empty_path_segment_is_refused_before_sending() -> None:
    with pytest.raises(DataPlatformError, match="id"):
        DataPlatform(base_url="http://h.test").data.get("orders", "")


@respx.mock
def test_set_token_changes_the_bearer_of_later_calls() -> None:
    route = respx.get("http://h.test/api/auth/me").respond(200, json={})
    client = DataPlatform(base_url="http://h.test")
    client.set_token("jwt_1")
    client.auth.me()
    assert route.calls.last.request.headers["authorization"] == "Bearer jwt_1"
    client.set_token(None)
    client.auth.me()
    assert "authorization" not in route.calls.last.request.headers


@respx.mock
def test_query_values_are_sent_as_the_server_reads_them() -> None:
    route = respx.post("http://h.test/api/v1/data/orders/import").respond(202, json={"_id": "j"})
    DataPlatform(base_url="http://h.test").data.import_("orders", b'{"a":1}\n', format="ndjson", infer=False)
    request = route.calls.last.request
    assert request.url.params["format"] == "ndjson" and request.url.params["infer"] == "false"
    assert "onError" not in request.url.params
    assert request.headers["content-type"] == "application/x-ndjson"


@respx.mock
def test_rate_limit_headers_are_remembered() -> None:
    headers = {"ratelimit-limit": "100", "ratelimit-remaining": "7", "ratelimit-reset": "30"}
    respx.get("http://h.test/api/v1/data/orders/a").mock(return_value=httpx.Response(200, json={}, headers=headers))
    client = DataPlatform(base_url="http://h.test")
    assert client.rate_limit is None
    client.data.get("orders", "a")
    assert client.rate_limit is not None and client.rate_limit.remaining == 7


@respx.mock
def test_with_options_changes_only_what_it_names() -> None:
    route = respx.get("http://h.test/api/v1/data/orders/a").respond(200, json={})
    client = DataPlatform(base_url="http://h.test", api_key="svc_k", max_retries=5)
    other = client.with_options(api_key="svc_other", timeout=5)
    other.data.get("orders", "a")
    assert route.calls.last.request.headers["x-api-key"] == "svc_other"
    assert (other.timeout, other.max_retries, other.base_url) == (5, 5, "http://h.test")
    assert client.api_key == "svc_k"


@respx.mock
def test_signing_in_with_store_token_sends_the_session_from_then_on() -> None:
    session = {"user": {}, "token": "jwt_new", "expiresAt": "2030-01-01T00:00:00Z"}
    respx.post("http://h.test/api/auth/signin").respond(200, json=session)
    me = respx.get("http://h.test/api/auth/me").respond(200, json={})
    client = DataPlatform(base_url="http://h.test")
    client.auth.signin({"email": "a@example.com", "password": "pw"})
    client.auth.me()
    assert "authorization" not in me.calls.last.request.headers
    client.auth.signin({"email": "a@example.com", "password": "pw"}, store_token=True)
    client.auth.me()
    assert me.calls.last.request.headers["authorization"] == "Bearer jwt_new"
