"""Fixtures of the unit tests."""

from __future__ import annotations

from typing import Iterator

import pytest

from .flaky_server import FlakyServer, serve


@pytest.fixture
def flaky() -> Iterator[FlakyServer]:
    """A scripted local server: append answers to ``flaky.script`` before calling it."""
    yield from serve()
