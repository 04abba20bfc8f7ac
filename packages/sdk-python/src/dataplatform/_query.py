"""A query builder over the SQL helper, as the Node client's: every value travels as a bound ``?`` parameter."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Dict, Generator, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

from typing_extensions import Literal, TypedDict

from ._errors import DataPlatformError
from ._generated import models as _m
from ._options import RequestOptions

if TYPE_CHECKING:
    from ._grouped_query import AsyncGroupedQueryBuilder, GroupedQueryBuilder, _GroupState
    from .resources.data import AsyncData, Data

#: A value a condition compares with; it always travels as a bound parameter, never in the SQL text.
SqlParam = Union[str, float, bool, None]  # an int is a float to a type checker
#: Operators of ``where(field, op, value)``.
WhereOperator = Literal[
    "=", "!=", "<", "<=", ">", ">=", "like", "not like", "in", "not in", "between", "is null", "is not null"
]

_COLLECTION = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_CONTROL = re.compile(r'["\x00-\x1f]')
_COMPARISONS = {"=", "!=", "<", "<=", ">", ">=", "like", "not like"}
_MAX_OFFSET = 2**53 - 1


class CompiledQuery(TypedDict):
    """The SQL of a built query, as sent to the SQL helper."""

    sql: str
    params: List[SqlParam]


def _quote_path(path: str) -> str:
    """Quotes a dotted field path one step at a time; names that cannot be quoted safely are refused."""
    steps = path.split(".")
    if any(step == "" or _CONTROL.search(step) for step in steps):
        raise DataPlatformError(
            f"Invalid field {path!r}: use dotted names without empty steps, double quotes or control characters"
        )
    return ".".join(f'"{step}"' for step in steps)


def _whole_number(value: int, what: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > maximum:
        raise DataPlatformError(f"Invalid {what} {value!r}: a whole number from 0 to {maximum}")
    return value


@dataclass(frozen=True)
class _State:
    collection: str
    conditions: Tuple[Tuple[str, Tuple[SqlParam, ...]], ...] = ()
    order: Tuple[str, ...] = ()
    fields: Tuple[str, ...] = ()
    limit: Optional[int] = None
    offset: Optional[int] = None
    options: Optional[RequestOptions] = field(default=None, compare=False)

    def compile(self, select: str, paging: bool) -> CompiledQuery:
        sql = f'SELECT {select} FROM "{self.collection}"'
        if self.conditions:
            sql += " WHERE " + " AND ".join(f"({text})" for text, _ in self.conditions)
        if paging and self.order:
            sql += " ORDER BY " + ", ".join(self.order)
        if paging and self.limit is not None:
            sql += f" LIMIT {self.limit}"
        if paging and self.offset is not None:
            sql += f" OFFSET {self.offset}"
        return {"sql": sql, "params": [param for _, params in self.conditions for param in params]}


def _condition(field_name: str, op: str, value: Any) -> Tuple[str, Tuple[SqlParam, ...]]:
    path = _quote_path(field_name)
    if op in ("is null", "is not null"):
        return f"{path} {op.upper()}", ()
    if op in ("in", "not in"):
        values = tuple(value) if isinstance(value, (list, tuple)) else ()
        if not values:
            raise DataPlatformError(f"where({field_name!r}, {op!r}) needs values")
        return f"{path} {op.upper()} ({', '.join('?' for _ in values)})", values
    if op == "between":
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise DataPlatformError("between takes two values: [low, high]")
        return f"{path} BETWEEN ? AND ?", (value[0], value[1])
    if op in _COMPARISONS:
        return f"{path} {op.upper()} ?", (value,)
    raise DataPlatformError(f"Unknown operator {op!r}")


Q = TypeVar("Q", bound="_Builder")


class _Builder:
    """The state-changing methods both builders share; each returns a new builder."""

    def __init__(self, state: _State) -> None:
        if not _COLLECTION.match(state.collection):
            raise DataPlatformError(f"Invalid collection name {state.collection!r}")
        self._state = state

    def _with(self: Q, **change: Any) -> Q:
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy._state = replace(self._state, **change)
        return copy

    def where(self: Q, field_name: str, op: WhereOperator, value: Union[SqlParam, Sequence[SqlParam]] = None) -> Q:
        """Adds a condition, joined to the others with AND: ``where("total", ">", 100)``, ``where("tag", "in", ["a"])``."""
        return self._with(conditions=(*self._state.conditions, _condition(field_name, op, value)))

    def order_by(self: Q, *fields: str) -> Q:
        """Sorts by fields, ``-`` for descending: ``order_by("-_createdAt", "name")``."""
        order = [f"{_quote_path(f[1:])} DESC" if f.startswith("-") else f"{_quote_path(f)} ASC" for f in fields]
        return self._with(order=(*self._state.order, *order))

    def select(self: Q, *fields: str) -> Q:
        """Answers only these fields, keyed by their dotted path: ``select("total", "customer.name")``."""
        return self._with(fields=(*self._state.fields, *(_quote_path(f) for f in fields)))

    def limit(self: Q, count: int) -> Q:
        """At most this many rows (0 to 1000; the server's default is 100)."""
        return self._with(limit=_whole_number(count, "limit", 1000))

    def offset(self: Q, count: int) -> Q:
        """Skips this many rows first."""
        return self._with(offset=_whole_number(count, "offset", _MAX_OFFSET))

    def to_sql(self) -> CompiledQuery:
        """The statement and parameters this builder sends."""
        fields = self._state.fields
        return self._state.compile(", ".join(fields) if fields else "*", True)

    def _group_state(self, fields: Tuple[str, ...]) -> _GroupState:
        from ._grouped_query import _GroupState  # the grouped builder imports this module

        state = self._state
        groups = tuple(_quote_path(f) for f in fields)
        return _GroupState(state.collection, state.conditions, groups, options=state.options)

    def _request(self, count: bool = False) -> _m.SqlRequest:
        compiled = self._state.compile("COUNT(*)", False) if count else self.to_sql()
        return {"sql": compiled["sql"], "params": compiled["params"]}


class QueryBuilder(_Builder):
    """A query on one collection: ``client.data.query("orders").where("total", ">", 100).execute()``."""

    def __init__(self, data: Data, collection: str, options: Optional[RequestOptions] = None) -> None:
        super().__init__(_State(collection=collection, options=options))
        self._data = data

    def execute(self) -> _m.SqlResult:
        """Runs the query: ``{"data": rows, "query": <the translated query>}``."""
        return self._data.sql(self._request(), options=self._state.options)

    def count(self) -> int:
        """The number of documents matching the conditions (ORDER BY, LIMIT and OFFSET do not apply)."""
        rows = self._data.sql(self._request(count=True), options=self._state.options)["data"]
        return int(rows[0]["count"]) if rows else 0

    def group_by(self, *fields: str) -> GroupedQueryBuilder:
        """Groups the matches by these fields (none: every match is one group); add aggregates with ``count()``, …"""
        from ._grouped_query import GroupedQueryBuilder

        return GroupedQueryBuilder(self._data, self._group_state(fields))

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        """The rows of the query."""
        return iter(self.execute()["data"])


class AsyncQueryBuilder(_Builder):
    """A query on one collection of the async client; ``await`` it for ``{"data", "query"}``."""

    def __init__(self, data: AsyncData, collection: str, options: Optional[RequestOptions] = None) -> None:
        super().__init__(_State(collection=collection, options=options))
        self._data = data

    async def execute(self) -> _m.SqlResult:
        """Runs the query: ``{"data": rows, "query": <the translated query>}``."""
        return await self._data.sql(self._request(), options=self._state.options)

    async def count(self) -> int:
        """The number of documents matching the conditions (ORDER BY, LIMIT and OFFSET do not apply)."""
        rows = (await self._data.sql(self._request(count=True), options=self._state.options))["data"]
        return int(rows[0]["count"]) if rows else 0

    def group_by(self, *fields: str) -> AsyncGroupedQueryBuilder:
        """Groups the matches by these fields (none: every match is one group); add aggregates with ``count()``, …"""
        from ._grouped_query import AsyncGroupedQueryBuilder

        return AsyncGroupedQueryBuilder(self._data, self._group_state(fields))

    def __await__(self) -> Generator[Any, None, _m.SqlResult]:
        return self.execute().__await__()
