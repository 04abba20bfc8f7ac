"""``client.data``: the generated document methods, plus the query builder, collection handles and imports."""

from __future__ import annotations

from typing import AsyncIterator, Iterator, List, Optional

from typing_extensions import Literal

from .._base import Content
from .._changes import ChangeEvent, subscribe, subscribe_async
from .._generated import models as _m
from .._generated.resources import AsyncDataResource, DataResource
from .._options import RequestOptions
from .._query import AsyncQueryBuilder, QueryBuilder, SqlParam
from .collection import AsyncCollection, Collection

ImportFormat = Literal["ndjson", "json", "csv"]

#: The media type an import is sent with, by format; the server also reads it to pick the parser.
_CONTENT_TYPES = {"ndjson": "application/x-ndjson", "json": "application/json", "csv": "text/csv"}
#: An import may run for a long time: one attempt waits up to a day for its answer.
_IMPORT_TIMEOUT = 24 * 60 * 60.0


def _import_options(options: Optional[RequestOptions], gzip: bool) -> RequestOptions:
    opts: RequestOptions = {"timeout": _IMPORT_TIMEOUT, **(options or {})}
    if gzip:
        opts["headers"] = {"content-encoding": "gzip", **(opts.get("headers") or {})}
    return opts


class Data(DataResource):
    """Documents in collections, under ``/api/v1/data/{collection}``."""

    def query(self, collection: str, *, options: Optional[RequestOptions] = None) -> QueryBuilder:
        """A query builder over the SQL helper: ``client.data.query("orders").where("total", ">", 100).execute()``."""
        return QueryBuilder(self, collection, options)

    def collection(self, name: str) -> Collection:
        """A handle on one collection: ``client.data.collection("orders").get(id)``."""
        return Collection(self, name)

    def subscribe(
        self,
        collection: str,
        *,
        where: Optional[str] = None,
        params: Optional[List[SqlParam]] = None,
        since: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Iterator[ChangeEvent]:
        """The collection's changes as they happen, reconnecting and resuming by itself after every drop.

        ``for change in client.data.subscribe("orders", where="status = ?", params=["paid"]): ...``; each change is
        the event a webhook receiver gets (``id``, ``type``, ``documentId``, ``data``…). ``since`` starts after a
        change's ``id`` kept from before (default: changes from now on). ``ChangeStreamGoneError`` when the server
        no longer keeps that event; a bad filter or a refused key raise their APIError.
        """
        return subscribe(self._client, collection, where=where, params=params, since=since, options=options)

    def import_(
        self,
        collection: str,
        content: Content,
        *,
        content_type: Optional[str] = None,
        format: Optional[ImportFormat] = None,
        on_error: Optional[Literal["skip", "abort"]] = None,
        infer: Optional[bool] = None,
        resume: Optional[str] = None,
        options: Optional[RequestOptions] = None,
        gzip: bool = False,
    ) -> _m.Job:
        """Streams a file of documents into a collection as an import job and returns the finished job.

        Chunks (an iterator or a file's lines) are sent once, never retried: resume an import that broke off
        with ``resume=job["_id"]`` and the same file from its start.
        """
        return super().import_(
            collection,
            content,
            content_type=content_type or (_CONTENT_TYPES[format] if format else "application/octet-stream"),
            format=format,
            on_error=on_error,
            infer=infer,
            resume=resume,
            options=_import_options(options, gzip),
        )


class AsyncData(AsyncDataResource):
    """Documents in collections, under ``/api/v1/data/{collection}``, for the async client."""

    def query(self, collection: str, *, options: Optional[RequestOptions] = None) -> AsyncQueryBuilder:
        """A query builder over the SQL helper: ``await client.data.query("orders").where("total", ">", 100)``."""
        return AsyncQueryBuilder(self, collection, options)

    def collection(self, name: str) -> AsyncCollection:
        """A handle on one collection: ``await client.data.collection("orders").get(id)``."""
        return AsyncCollection(self, name)

    def subscribe(
        self,
        collection: str,
        *,
        where: Optional[str] = None,
        params: Optional[List[SqlParam]] = None,
        since: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> AsyncIterator[ChangeEvent]:
        """The collection's changes as they happen, as ``DataPlatform.data.subscribe``: ``async for change in …``."""
        return subscribe_async(self._client, collection, where=where, params=params, since=since, options=options)

    async def import_(
        self,
        collection: str,
        content: Content,
        *,
        content_type: Optional[str] = None,
        format: Optional[ImportFormat] = None,
        on_error: Optional[Literal["skip", "abort"]] = None,
        infer: Optional[bool] = None,
        resume: Optional[str] = None,
        options: Optional[RequestOptions] = None,
        gzip: bool = False,
    ) -> _m.Job:
        """Streams a file of documents into a collection as an import job and returns the finished job."""
        return await super().import_(
            collection,
            content,
            content_type=content_type or (_CONTENT_TYPES[format] if format else "application/octet-stream"),
            format=format,
            on_error=on_error,
            infer=infer,
            resume=resume,
            options=_import_options(options, gzip),
        )
