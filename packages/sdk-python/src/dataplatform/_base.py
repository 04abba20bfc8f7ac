"""What the sync and async clients share: options, request building, and how an answer is judged."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, AsyncIterable, Dict, Iterable, Mapping, Optional, Union
from urllib.parse import quote, urlsplit

import httpx

from ._errors import APIConnectionError, APIError, APITimeoutError, DataPlatformError, make_status_error
from ._options import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, RequestOptions, env
from ._rate_limit import RateLimitInfo, read_rate_limit
from ._request_id import new_request_id
from ._retry import MAX_RETRY_WAIT, is_retryable_status, retry_delay
from ._version import __version__

#: A raw request body: bytes or text sent as they are, or chunks streamed (and then never retried).
Content = Union[bytes, str, Iterable[bytes], AsyncIterable[bytes]]
#: Query values; None leaves the parameter out.
QueryValue = Union[str, int, float, bool, None]

#: The JSON body was not given (``None`` is a JSON body: ``null``).
NOT_GIVEN: Any = object()


def segment(value: str, what: str) -> str:
    """One path segment, percent-encoded; an empty one would silently name another route."""
    if not isinstance(value, str) or value == "":
        raise DataPlatformError(f"Invalid {what} {value!r}: expected a non-empty string")
    return quote(value, safe="")


def encode_query(query: Optional[Mapping[str, QueryValue]]) -> Dict[str, str]:
    """Query values as the server reads them: booleans as ``true``/``false``, None left out."""
    out: Dict[str, str] = {}
    for name, value in (query or {}).items():
        if value is None:
            continue
        out[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return out


def parse_json(response: httpx.Response) -> Any:
    """A JSON answer; an empty body is None."""
    if not response.content:
        return None
    try:
        return json.loads(response.content)
    except ValueError as error:
        raise DataPlatformError(
            f"Could not parse the {response.status_code} answer as JSON: {response.text[:200]}"
        ) from error


def parse_error_body(response: httpx.Response) -> Any:
    """An error body as JSON when it is JSON, else its text (a proxy's HTML page, say)."""
    try:
        return json.loads(response.content)
    except ValueError:
        return response.text


@dataclass
class Prepared:
    """One call, built once: every attempt sends this request unchanged (so the same Idempotency-Key)."""

    request: httpx.Request
    request_id: str
    max_retries: int
    max_retry_wait: float


class BaseClient:
    """Options and request building shared by DataPlatform and AsyncDataPlatform."""

    #: The API key in use, if any.
    api_key: Optional[str]
    #: The server address, without a trailing slash.
    base_url: str
    #: Default per-attempt timeout in seconds.
    timeout: float
    #: Default number of retries.
    max_retries: int
    #: Default longest ``Retry-After`` wait in seconds.
    max_retry_wait: float

    def __init__(
        self,
        *,
        api_key: Optional[str],
        token: Optional[str],
        base_url: Optional[str],
        timeout: Optional[float],
        max_retries: Optional[int],
        max_retry_wait: Optional[float],
        default_headers: Optional[Mapping[str, Optional[str]]],
    ) -> None:
        self.api_key = api_key if api_key is not None else env("DATAPLATFORM_API_KEY")
        self._token = token if token is not None else env("DATAPLATFORM_TOKEN")
        given = base_url if base_url is not None else env("DATAPLATFORM_BASE_URL")
        self._is_default_base_url = given is None
        url = urlsplit(given or DEFAULT_BASE_URL)
        # `localhost:5000` splits into the scheme "localhost": the scheme is checked too.
        if url.scheme not in ("http", "https") or not url.netloc:
            raise DataPlatformError(
                f"Invalid base_url {given!r}: expected an http(s) address such as {DEFAULT_BASE_URL}"
            )
        self.base_url = f"{url.scheme}://{url.netloc}{url.path.rstrip('/')}"
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        self.max_retries = DEFAULT_MAX_RETRIES if max_retries is None else max_retries
        self.max_retry_wait = MAX_RETRY_WAIT if max_retry_wait is None else max_retry_wait
        self._default_headers = dict(default_headers or {})
        # Made once: httpx would build a Timeout from the number on every call.
        self._timeout = httpx.Timeout(self.timeout)
        self._rate_limit: Optional[RateLimitInfo] = None

    def _options(self) -> Dict[str, Any]:
        """The options this client was made with, as resolved (environment included)."""
        return {
            "api_key": self.api_key,
            "token": self._token,
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "max_retry_wait": self.max_retry_wait,
            "default_headers": self._default_headers,
        }

    @property
    def token(self) -> Optional[str]:
        """The bearer token in use, if any."""
        return self._token

    def set_token(self, token: Optional[str]) -> None:
        """Sends ``token`` as ``Authorization: Bearer`` from now on; None stops sending one."""
        self._token = token

    @property
    def rate_limit(self) -> Optional[RateLimitInfo]:
        """The key's rate limit as the last answer with ``RateLimit-*`` headers told it; None before any."""
        return self._rate_limit

    def _headers(self, request_id: str) -> Dict[str, str]:
        headers = {
            "accept": "application/json",
            "user-agent": f"dataplatform-python/{__version__}",
            "x-request-id": request_id,
        }
        if self.api_key:
            headers["x-api-key"] = self.api_key
        if self._token:
            headers["authorization"] = f"Bearer {self._token}"
        return headers

    def _prepare(
        self,
        http: Union[httpx.Client, httpx.AsyncClient],
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]],
        body: Any,
        content: Optional[Content],
        headers: Optional[Mapping[str, Optional[str]]],
        options: Optional[RequestOptions],
    ) -> Prepared:
        opts: RequestOptions = options or {}
        request_id = new_request_id()
        merged = self._headers(request_id)
        data: Optional[Content] = content
        if body is not NOT_GIVEN:
            data = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
            merged["content-type"] = "application/json"
        # A caller's header wins, and None removes one the client would send.
        for source in (self._default_headers, headers, opts.get("headers")):
            for name, value in (source or {}).items():
                if value is None:
                    merged.pop(name.lower(), None)
                else:
                    merged[name.lower()] = value
        if "if_match" in opts:
            merged["if-match"] = opts["if_match"]
        if method not in ("GET", "HEAD"):
            merged["idempotency-key"] = opts.get("idempotency_key") or merged.get("idempotency-key") or str(uuid.uuid4())
        timeout = httpx.Timeout(opts["timeout"]) if "timeout" in opts else self._timeout
        # httpx replaces a URL's own query with `params` when given, even an empty one.
        params = encode_query(query)
        request = http.build_request(
            method,
            self.base_url + path,
            params=params or None,
            headers=merged,
            content=data,
            timeout=timeout,
        )
        # A stream is read as it is sent, so there is nothing left to send again.
        streamed = data is not None and not isinstance(data, (bytes, str))
        return Prepared(
            request=request,
            request_id=merged.get("x-request-id", request_id),
            max_retries=0 if streamed else opts.get("max_retries", self.max_retries),
            max_retry_wait=opts.get("max_retry_wait", self.max_retry_wait),
        )

    def _connection_error(self, error: httpx.TransportError, request_id: str) -> APIConnectionError:
        """The client's error for a failure without an answer; a refused default address says how to fix it."""
        if isinstance(error, httpx.TimeoutException):
            return APITimeoutError(f"Request to {self.base_url} timed out: {error}", request_id=request_id)
        if _refused(error):
            if self._is_default_base_url:
                message = (
                    f"Connection refused by {self.base_url}, the default base address (neither the `base_url` "
                    "option nor the DATAPLATFORM_BASE_URL environment variable is set). Start the server there, "
                    "or point the client at yours with DataPlatform(base_url=...) or DATAPLATFORM_BASE_URL."
                )
            else:
                message = f"Connection refused by {self.base_url}: is the server running there?"
            return APIConnectionError(message, request_id=request_id)
        return APIConnectionError(f"Connection error ({self.base_url}): {error}", request_id=request_id)

    def _judge(self, response: httpx.Response, prepared: Prepared, retry: int) -> Optional[float]:
        """After an error answer: seconds to wait before the next attempt, or raises the answer's error."""
        body = parse_error_body(response)
        code = body.get("code") if isinstance(body, dict) else None
        delay = (
            retry_delay(retry, response.headers, prepared.max_retry_wait)
            if retry < prepared.max_retries and is_retryable_status(response.status_code, code)
            else None
        )
        if delay is None:
            raise make_status_error(response, body, prepared.request_id)
        return delay

    def _judge_no_answer(self, retry: int) -> float:
        """Seconds to wait after a failure without an answer: backoff, there being no server wish to follow."""
        return retry_delay(retry, None) or 0.0

    def _seen(self, response: httpx.Response) -> None:
        info = read_rate_limit(response.headers)
        if info is not None:
            self._rate_limit = info


def _refused(error: BaseException) -> bool:
    seen: BaseException | None = error
    for _ in range(6):
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


__all__ = ["APIError", "BaseClient", "Content", "NOT_GIVEN", "Prepared", "QueryValue", "segment"]
