"""The dataplatform API client for Python: ``from dataplatform import DataPlatform``."""

from ._changes import ChangeEvent, ChangeStreamGoneError
from ._client import AsyncDataPlatform, DataPlatform
from ._errors import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DataPlatformError,
    HeadersTooLargeError,
    InternalServerError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    PaymentRequiredError,
    PermissionDeniedError,
    PreconditionFailedError,
    PreconditionRequiredError,
    RateLimitError,
    RequestTimeoutError,
    UnprocessableEntityError,
    UnsupportedMediaTypeError,
    URITooLongError,
)
from ._options import DEFAULT_BASE_URL, RequestOptions
from ._pagination import AsyncPage, AsyncPager, SyncPage
from ._grouped_query import AsyncGroupedQueryBuilder, GroupedQueryBuilder
from ._query import AsyncQueryBuilder, CompiledQuery, QueryBuilder, SqlParam
from ._rate_limit import RateLimitInfo
from ._sse import ServerSentEvent
from ._version import __version__

__all__ = [
    "DataPlatform",
    "AsyncDataPlatform",
    "DEFAULT_BASE_URL",
    "RequestOptions",
    "SyncPage",
    "AsyncPage",
    "AsyncPager",
    "QueryBuilder",
    "AsyncQueryBuilder",
    "GroupedQueryBuilder",
    "AsyncGroupedQueryBuilder",
    "CompiledQuery",
    "SqlParam",
    "RateLimitInfo",
    "ServerSentEvent",
    "ChangeEvent",
    "ChangeStreamGoneError",
    "DataPlatformError",
    "APIError",
    "APIStatusError",
    "APIConnectionError",
    "APITimeoutError",
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
    "__version__",
]
