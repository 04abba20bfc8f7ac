"""Every case of spec/conformance, through the Python client, against the reference server the test setup started."""

from __future__ import annotations

import os
from typing import Any, Dict

import pytest

from .runner import load_cases, run_case

BASE_URL = os.environ.get("DATAPLATFORM_CONFORMANCE_URL")
CASES = load_cases()


def test_the_cases_are_found() -> None:
    assert len(CASES) > 0


@pytest.mark.skipif(BASE_URL is None, reason="DATAPLATFORM_CONFORMANCE_URL names no reference server")
@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_case(case: Dict[str, Any]) -> None:
    reason = (case.get("skip") or {}).get("server")
    if reason:
        pytest.skip(reason)
    assert BASE_URL is not None
    run_case(case, BASE_URL)
