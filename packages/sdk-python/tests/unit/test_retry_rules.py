"""The retry rules as functions: which answers are retried, and how long the client waits."""

from __future__ import annotations

import email.utils

import httpx
import pytest

from dataplatform._retry import backoff_delay, is_retryable_status, retry_delay, server_retry_delay


@pytest.mark.parametrize(
    "status,code,retried",
    [(408, None, True), (429, "rate_limited", True), (500, None, True), (503, "cluster_unavailable", True),
     (409, "lock_timeout", True), (409, "conflict", False), (409, "idempotency_mismatch", False),
     (409, "transaction_aborted", False), (400, "validation_error", False), (404, "not_found", False)],
)
def test_which_answers_are_retried(status: int, code: str, retried: bool) -> None:
    assert is_retryable_status(status, code) is retried


def test_retry_after_in_seconds_milliseconds_and_as_a_date() -> None:
    assert server_retry_delay(httpx.Headers({"retry-after": "7"})) == 7
    assert server_retry_delay(httpx.Headers({"retry-after-ms": "250", "retry-after": "7"})) == 0.25
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert server_retry_delay(httpx.Headers({"retry-after": date}), now=1_000_000) == 30
    assert server_retry_delay(httpx.Headers({"retry-after": "soon"})) is None
    assert server_retry_delay(httpx.Headers({"retry-after": "-1"})) is None


def test_backoff_doubles_up_to_eight_seconds_and_jitter_takes_at_most_a_quarter() -> None:
    assert [backoff_delay(n, jitter=0) for n in range(6)] == [0.5, 1, 2, 4, 8, 8]
    assert backoff_delay(1, jitter=1) == 0.75


def test_a_server_wish_longer_than_the_limit_means_no_retry() -> None:
    assert retry_delay(0, httpx.Headers({"retry-after": "60"}), max_wait=10) is None
    assert retry_delay(0, httpx.Headers({"retry-after": "3"}), max_wait=10) == 3
    assert 0.375 <= (retry_delay(0, httpx.Headers()) or 0) <= 0.5
