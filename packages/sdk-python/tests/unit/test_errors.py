"""An error answer raises the class of its status family, with the body's code, request id and details."""

from __future__ import annotations

from typing import Type

import httpx
import pytest
import respx

import dataplatform
from dataplatform import APIStatusError, DataPlatform

CLASSES = [
    (400, dataplatform.BadRequestError),
    (401, dataplatform.AuthenticationError),
    (402, dataplatform.PaymentRequiredError),
    (403, dataplatform.PermissionDeniedError),
    (404, dataplatform.NotFoundError),
    (405, dataplatform.MethodNotAllowedError),
    (409, dataplatform.ConflictError),
    (412, dataplatform.PreconditionFailedError),
    (413, dataplatform.PayloadTooLargeError),
    (414, dataplatform.URITooLongError),
    (415, dataplatform.UnsupportedMediaTypeError),
    (422, dataplatform.UnprocessableEntityError),
    (428, dataplatform.PreconditionRequiredError),
    (431, dataplatform.HeadersTooLargeError),
    (500, dataplatform.InternalServerError),
    (503, dataplatform.InternalServerError),
    (418, APIStatusError),
]


@pytest.mark.parametrize("status,cls", CLASSES)
@respx.mock
def test_the_status_picks_the_class(status: int, cls: Type[APIStatusError]) -> None:
    body = {"error": "Nope", "code": "some_code", "details": {"field": "x"}, "requestId": "req_body"}
    respx.get("http://h.test/api/v1/data/orders/a").respond(status, json=body)
    with pytest.raises(cls) as caught:
        DataPlatform(base_url="http://h.test", max_retries=0).data.get("orders", "a")
    error = caught.value
    assert type(error) is cls
    assert (error.status, error.code, error.request_id, error.details) == (status, "some_code", "req_body", {"field": "x"})
    assert str(error) == f"{status} some_code: Nope"


@respx.mock
def test_without_an_id_in_the_body_the_answer_header_names_the_request() -> None:
    respx.get("http://h.test/api/auth/me").mock(
        return_value=httpx.Response(401, json={"error": "x", "code": "unauthorized"}, headers={"x-request-id": "req_h"})
    )
    with pytest.raises(dataplatform.AuthenticationError) as caught:
        DataPlatform(base_url="http://h.test").auth.me()
    assert caught.value.request_id == "req_h"


@respx.mock
def test_a_proxy_page_without_json_still_names_the_request_it_was_sent_as() -> None:
    route = respx.get("http://h.test/api/auth/me").respond(404, text="<html>not here</html>")
    with pytest.raises(dataplatform.NotFoundError) as caught:
        DataPlatform(base_url="http://h.test").auth.me()
    assert caught.value.code is None
    assert caught.value.request_id == route.calls.last.request.headers["x-request-id"]
    assert "not here" in str(caught.value)
