"""Errors of the client: one base class, one subclass per status family, and one function that picks the class."""

from __future__ import annotations

from typing import Any, Dict, Optional, Type

import httpx

__all__ = [
    "DataPlatformError",
    "APIError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "RequestTimeoutError",
    "ConflictError",
    "PreconditionFailedError",
    "PayloadTooLargeError",
    "URITooLongError",
    "UnsupportedMediaTypeError",
    "UnprocessableEntityError",
    "PreconditionRequiredError",
    "RateLimitError",
    "HeadersTooLargeError",
    "InternalServerError",
    "APIConnectionError",
    "APITimeoutError",
    "make_status_error",
]


class DataPlatformError(Exception):
    """Base class of every error this client raises."""


class APIError(DataPlatformError):
    """A call that failed: an error answer (`APIStatusError`) or no answer at all (`APIConnectionError`)."""

    message: str
    #: Machine-readable code from the error body, e.g. ``not_found`` (``dataplatform.types.ErrorCode`` lists the
    #: documented ones); None when no answer or no code arrived.
    code: Optional[str]
    #: The request's id; quote it in bug reports. From the body, else the ``X-Request-Id`` answer header, else the
    #: ``X-Request-Id`` the client sent (which the server logs too).
    request_id: str
    #: Extra facts from the body, such as the invalid field.
    details: Any
    #: HTTP status; None when no answer arrived.
    status: Optional[int]
    #: The answer, when one arrived.
    response: Optional[httpx.Response]
    #: The parsed error body (``{error, code, details?, requestId}``), or its text when it is not JSON.
    body: Any

    def __init__(
        self,
        message: str,
        *,
        request_id: str = "",
        code: Optional[str] = None,
        details: Any = None,
        status: Optional[int] = None,
        response: Optional[httpx.Response] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.request_id = request_id
        self.code = code
        self.details = details
        self.status = status
        self.response = response
        self.body = body


class APIStatusError(APIError):
    """An error answer (status 400 and up)."""

    status: int
    response: httpx.Response

    def __init__(self, response: httpx.Response, body: Any, sent_request_id: str = "") -> None:
        fields: Dict[str, Any] = body if isinstance(body, dict) else {}
        code = fields.get("code") if isinstance(fields.get("code"), str) else None
        text = fields.get("error") if isinstance(fields.get("error"), str) else None
        if text is None and isinstance(body, str) and body:
            text = body[:200]
        request_id = fields.get("requestId")
        if not isinstance(request_id, str) or not request_id:
            request_id = response.headers.get("x-request-id") or sent_request_id
        message = f"{response.status_code}{' ' + code if code else ''}{': ' + text if text else ''}"
        super().__init__(
            message,
            request_id=request_id,
            code=code,
            details=fields.get("details"),
            status=response.status_code,
            response=response,
            body=body,
        )


class BadRequestError(APIStatusError):
    """400: the request is not of the documented form (``validation_error``, ``invalid_json``, …)."""


class AuthenticationError(APIStatusError):
    """401: no credential, an unknown one, or an expired or paused key."""


class PaymentRequiredError(APIStatusError):
    """402: the plan's credits or billing do not allow the call (``payment_required``)."""


class PermissionDeniedError(APIStatusError):
    """403: the credential lacks a scope, or the address is blocked."""


class NotFoundError(APIStatusError):
    """404: the document, key, webhook or route does not exist."""


class MethodNotAllowedError(APIStatusError):
    """405: the path exists, but not with this method; the ``Allow`` header lists the ones it has."""


class RequestTimeoutError(APIStatusError):
    """408: the request did not reach the server in full in time (retried like a connection error)."""


class ConflictError(APIStatusError):
    """409: a duplicate id, a reused idempotency key, or an aborted transaction."""


class PreconditionFailedError(APIStatusError):
    """412: ``If-Match`` named a version the document no longer has."""


class PayloadTooLargeError(APIStatusError):
    """413: the body is over the server's limit (1 MiB by default)."""


class URITooLongError(APIStatusError):
    """414: a path segment is longer than any identifier the API uses."""


class UnsupportedMediaTypeError(APIStatusError):
    """415: the body's ``Content-Type`` is not one the route takes."""


class UnprocessableEntityError(APIStatusError):
    """422: the request was understood but could not be carried out (a function failed, say)."""


class PreconditionRequiredError(APIStatusError):
    """428: device sign-in is not confirmed yet (``authorization_pending``); poll again after the interval."""


class RateLimitError(APIStatusError):
    """429: the key used up its requests for this minute; ``Retry-After`` says for how long."""


class HeadersTooLargeError(APIStatusError):
    """431: the request line and headers together exceed the server's limit."""


class InternalServerError(APIStatusError):
    """5xx: the server failed or the cluster is unavailable."""


class APIConnectionError(APIError):
    """No answer arrived: the connection was refused, reset, or failed to resolve."""

    def __init__(self, message: str = "Connection error", *, request_id: str = "") -> None:
        super().__init__(message, request_id=request_id)


class APITimeoutError(APIConnectionError):
    """No answer arrived within the ``timeout``."""

    def __init__(self, message: str = "Request timed out", *, request_id: str = "") -> None:
        super().__init__(message, request_id=request_id)


_STATUS_CLASSES: Dict[int, Type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    408: RequestTimeoutError,
    409: ConflictError,
    412: PreconditionFailedError,
    413: PayloadTooLargeError,
    414: URITooLongError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableEntityError,
    428: PreconditionRequiredError,
    429: RateLimitError,
    431: HeadersTooLargeError,
}


def make_status_error(response: httpx.Response, body: Any, sent_request_id: str = "") -> APIStatusError:
    """The one factory: the subclass for the answer's status, or APIStatusError for a status without one."""
    status = response.status_code
    cls = InternalServerError if status >= 500 else _STATUS_CLASSES.get(status, APIStatusError)
    return cls(response, body, sent_request_id)
