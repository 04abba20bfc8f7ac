"""Every operation of openapi.json is reachable from both clients, under its operationId in Python's case."""

from __future__ import annotations

import inspect
import json
import keyword
import re
from pathlib import Path
from typing import Any, List

import pytest

from dataplatform import AsyncDataPlatform, DataPlatform

OPENAPI = json.loads((Path(__file__).resolve().parents[4] / "packages/contract/openapi.json").read_text("utf-8"))
OPERATIONS = sorted(
    op["operationId"] for item in OPENAPI["paths"].values() for op in item.values() if isinstance(op, dict)
)


def python_path(operation_id: str) -> List[str]:
    """``auth.logoutAll`` → ``["auth", "logout_all"]``; keywords get an underscore (``data.import_``)."""
    names = [re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", part).lower() for part in operation_id.split(".")]
    return [name + "_" if keyword.iskeyword(name) else name for name in names]


def reach(client: Any, operation_id: str) -> Any:
    target = client
    for name in python_path(operation_id):
        target = getattr(target, name)
    return target


def test_the_contract_has_operations() -> None:
    assert len(OPERATIONS) > 50


@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_the_sync_client_has_the_operation(operation_id: str) -> None:
    method = reach(DataPlatform(base_url="http://h.test"), operation_id)
    assert callable(method) and not inspect.iscoroutinefunction(method)


@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_the_async_client_has_the_operation(operation_id: str) -> None:
    method = reach(AsyncDataPlatform(base_url="http://h.test"), operation_id)
    assert callable(method)
