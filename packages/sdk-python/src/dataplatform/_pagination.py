"""Pages of a list: iterate one to walk every item of every page, fetching pages as the loop reaches them."""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Generator, Generic, Iterator, List, Mapping, TypeVar

from ._errors import DataPlatformError

T = TypeVar("T")


class _PageFields(Generic[T]):
    #: The items of this page.
    data: List[T]
    #: Number of items across all pages.
    total: int
    #: Page size used for this page.
    limit: int
    #: Number of items before this page.
    skip: int

    def __init__(self, body: Mapping[str, Any], skip: int, limit: int | None) -> None:
        self.data = list(body.get("data") or [])
        self.total = int(body.get("total", len(self.data)))
        # Some lists (a key's usage) answer `{data, total}` only: the page then takes its place from the query.
        self.skip = int(body.get("skip", skip))
        self.limit = int(body.get("limit", limit if limit is not None else len(self.data)))

    def has_next_page(self) -> bool:
        """True when items follow this page. An empty page ends the walk, even if ``total`` says otherwise."""
        return len(self.data) > 0 and self.skip + len(self.data) < self.total

    def _next_skip(self) -> int:
        if not self.has_next_page():
            raise DataPlatformError("No next page: check has_next_page() before calling get_next_page()")
        return self.skip + len(self.data)


class SyncPage(_PageFields[T]):
    """One page of a list; ``for item in page`` walks this page and every later one."""

    def __init__(
        self, body: Mapping[str, Any], skip: int, limit: int | None, fetch: Callable[[int], SyncPage[T]]
    ) -> None:
        super().__init__(body, skip, limit)
        self._fetch = fetch

    def get_next_page(self) -> SyncPage[T]:
        """Fetches the page after this one, with the same limit, sort and request options."""
        return self._fetch(self._next_skip())

    def iter_pages(self) -> Iterator[SyncPage[T]]:
        """Yields this page and every later one."""
        page: SyncPage[T] = self
        yield page
        while page.has_next_page():
            page = page.get_next_page()
            yield page

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data


class AsyncPage(_PageFields[T]):
    """One page of a list; ``async for item in page`` walks this page and every later one."""

    def __init__(
        self,
        body: Mapping[str, Any],
        skip: int,
        limit: int | None,
        fetch: Callable[[int], Awaitable[AsyncPage[T]]],
    ) -> None:
        super().__init__(body, skip, limit)
        self._fetch = fetch

    async def get_next_page(self) -> AsyncPage[T]:
        """Fetches the page after this one, with the same limit, sort and request options."""
        return await self._fetch(self._next_skip())

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        """Yields this page and every later one."""
        page: AsyncPage[T] = self
        yield page
        while page.has_next_page():
            page = await page.get_next_page()
            yield page

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncPager(Generic[T]):
    """What an async list call returns: ``await`` it for the first page, or ``async for`` over every item."""

    def __init__(self, first: Callable[[], Awaitable[AsyncPage[T]]]) -> None:
        self._first = first

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._first().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self._first()
        async for item in page:
            yield item
