"""Every case of spec/conformance, through the Python client, against the reference server the test setup started."""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Dict, Iterator, Optional

import pytest

from .runner import load_cases, run_case

BASE_URL = os.environ.get("DATAPLATFORM_CONFORMANCE_URL")
CASES = load_cases()
#: Cases run side by side, as the TypeScript runners run them (each signs its own users up and names its own
#: collections), so the run waits on the server's sign-ups in parallel rather than one after another.
WORKERS = 8


def test_the_cases_are_found() -> None:
    assert len(CASES) > 0


@pytest.fixture(scope="module")
def started() -> Iterator[Dict[str, "Future[None]"]]:
    """Every case that applies to the server, started at once; each test waits for its own."""
    assert BASE_URL is not None
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        yield {
            case_id: pool.submit(run_case, case, BASE_URL)
            for case_id, case in CASES
            if not (case.get("skip") or {}).get("server")
        }


@pytest.mark.skipif(BASE_URL is None, reason="DATAPLATFORM_CONFORMANCE_URL names no reference server")
@pytest.mark.parametrize("case_id,case", CASES, ids=[i for i, _ in CASES])
def test_case(case_id: str, case: Dict[str, Any], started: Dict[str, "Future[None]"]) -> None:
    reason: Optional[str] = (case.get("skip") or {}).get("server")
    if reason:
        pytest.skip(reason)
    started[case_id].result()  # raises the case's ConformanceFailure
