"""The reference server the test setup started, and the development key it made."""

from __future__ import annotations

import os
import secrets
from typing import Iterator

import pytest

from dataplatform import DataPlatform

BASE_URL = os.environ.get("DATAPLATFORM_CONFORMANCE_URL")
API_KEY = os.environ.get("DATAPLATFORM_LIVE_API_KEY")

@pytest.fixture
def server() -> tuple[str, str]:
    if not (BASE_URL and API_KEY):
        pytest.skip("DATAPLATFORM_CONFORMANCE_URL and DATAPLATFORM_LIVE_API_KEY name no reference server")
    return BASE_URL, API_KEY


@pytest.fixture
def client(server: tuple[str, str]) -> Iterator[DataPlatform]:
    with DataPlatform(base_url=server[0], api_key=server[1]) as dp:
        yield dp


@pytest.fixture
def collection() -> str:
    """A collection name no other test uses."""
    return "py_" + secrets.token_hex(6)
