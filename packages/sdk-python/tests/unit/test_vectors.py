"""dataplatform.webhooks gives every vector of spec/webhooks/vectors.json its expected result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import httpx
import pytest

from dataplatform.webhooks import WebhookVerificationError, verify

VECTORS = json.loads((Path(__file__).resolve().parents[4] / "spec/webhooks/vectors.json").read_text("utf-8"))["vectors"]


def _result(vector: Dict[str, Any], headers: Any, secret: Any) -> Dict[str, Any]:
    try:
        verify(vector["body"], headers, secret, tolerance_seconds=vector["toleranceSeconds"], now=vector["now"])
    except WebhookVerificationError as error:
        return {"valid": False, "code": error.code}
    return {"valid": True}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_with_plain_headers(vector: Dict[str, Any]) -> None:
    assert _result(vector, vector["headers"], vector["secrets"]) == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_with_httpx_headers(vector: Dict[str, Any]) -> None:
    # As a receiver built on httpx (or Starlette) holds them: case-insensitive, repeated headers kept apart.
    pairs = [
        (name, value)
        for name, values in vector["headers"].items()
        for value in (values if isinstance(values, list) else [values])
    ]
    assert _result(vector, httpx.Headers(pairs), vector["secrets"]) == vector["expected"]


@pytest.mark.parametrize("vector", [v for v in VECTORS if len(v["secrets"]) == 1], ids=lambda v: v["id"])
def test_vector_with_a_single_secret(vector: Dict[str, Any]) -> None:
    assert _result(vector, vector["headers"], vector["secrets"][0]) == vector["expected"]
