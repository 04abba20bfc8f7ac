"""One collection with its name fixed: the same calls as ``client.data`` without the collection argument."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .._generated import models as _m
from .._options import RequestOptions
from .._pagination import AsyncPager, SyncPage

if TYPE_CHECKING:
    from .data import AsyncData, Data


class Collection:
    """``client.data.collection("orders")``: ``for order in orders.list(): ...``."""

    def __init__(self, data: Data, name: str) -> None:
        self._data = data
        #: The collection name.
        self.name = name

    def list(
        self, *, limit: Optional[int] = None, skip: Optional[int] = None, sort: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> SyncPage[_m.Document]:
        """The first page; iterate it for every document of every page."""
        return self._data.list(self.name, limit=limit, skip=skip, sort=sort, options=options)

    def get(self, id: str, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """One document; NotFoundError when it does not exist."""
        return self._data.get(self.name, id, options=options)

    def create(self, body: _m.DocumentInput, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """Stores a new document; a supplied ``_id`` is kept, a duplicate one raises ConflictError."""
        return self._data.create(self.name, body, options=options)

    def replace(self, id: str, body: _m.DocumentReplace, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """Replaces every field of a document; ``_id`` and ``_createdAt`` are kept."""
        return self._data.replace(self.name, id, body, options=options)

    def update(self, id: str, patch: _m.DocumentPatch, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """Applies a JSON Merge Patch: set fields, merge nested objects, remove fields set to None."""
        return self._data.update(self.name, id, patch, options=options)

    def delete(self, id: str, *, options: Optional[RequestOptions] = None) -> _m.Deleted:
        """Deletes a document."""
        return self._data.delete(self.name, id, options=options)


class AsyncCollection:
    """``client.data.collection("orders")`` of the async client: ``async for order in orders.list(): ...``."""

    def __init__(self, data: AsyncData, name: str) -> None:
        self._data = data
        #: The collection name.
        self.name = name

    def list(
        self, *, limit: Optional[int] = None, skip: Optional[int] = None, sort: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> AsyncPager[_m.Document]:
        """Await for the first page, or ``async for`` over every document of every page."""
        return self._data.list(self.name, limit=limit, skip=skip, sort=sort, options=options)

    async def get(self, id: str, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """One document; NotFoundError when it does not exist."""
        return await self._data.get(self.name, id, options=options)

    async def create(self, body: _m.DocumentInput, *, options: Optional[RequestOptions] = None) -> _m.Document:
        """Stores a new document."""
        return await self._data.create(self.name, body, options=options)

    async def replace(
        self, id: str, body: _m.DocumentReplace, *, options: Optional[RequestOptions] = None
    ) -> _m.Document:
        """Replaces every field of a document."""
        return await self._data.replace(self.name, id, body, options=options)

    async def update(
        self, id: str, patch: _m.DocumentPatch, *, options: Optional[RequestOptions] = None
    ) -> _m.Document:
        """Applies a JSON Merge Patch."""
        return await self._data.update(self.name, id, patch, options=options)

    async def delete(self, id: str, *, options: Optional[RequestOptions] = None) -> _m.Deleted:
        """Deletes a document."""
        return await self._data.delete(self.name, id, options=options)
