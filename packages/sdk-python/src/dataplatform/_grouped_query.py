"""Grouped queries over the SQL helper, as the Node client's ``groupBy``: every value a bound ``?`` parameter."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generator, Optional, Sequence, Tuple, TypeVar, Union

from ._errors import DataPlatformError
from ._generated import models as _m
from ._options import RequestOptions
from ._query import _MAX_OFFSET, CompiledQuery, SqlParam, WhereOperator, _condition, _quote_path, _whole_number

if TYPE_CHECKING:
    from .resources.data import AsyncData, Data

_ALIAS = re.compile(r'^[^"\x00-\x1f]+$')


def _quote_alias(alias: str) -> str:
    if not _ALIAS.match(alias):
        raise DataPlatformError(f"Invalid alias {alias!r}: use a name without double quotes or control characters")
    return f'"{alias}"'


@dataclass(frozen=True)
class _GroupState:
    collection: str
    conditions: Tuple[Tuple[str, Tuple[SqlParam, ...]], ...]
    groups: Tuple[str, ...]
    aggregates: Tuple[str, ...] = ()
    having: Tuple[Tuple[str, Tuple[SqlParam, ...]], ...] = ()
    order: Tuple[str, ...] = ()
    limit: Optional[int] = None
    offset: Optional[int] = None
    options: Optional[RequestOptions] = field(default=None, compare=False)

    def compile(self) -> CompiledQuery:
        columns = (*self.groups, *self.aggregates)
        if not columns:
            raise DataPlatformError("A grouped query needs a grouped field or an aggregate: group_by(field) or count()")
        sql = f'SELECT {", ".join(columns)} FROM "{self.collection}"'
        if self.conditions:
            sql += " WHERE " + " AND ".join(f"({text})" for text, _ in self.conditions)
        if self.groups:
            sql += " GROUP BY " + ", ".join(self.groups)
        if self.having:
            sql += " HAVING " + " AND ".join(f"({text})" for text, _ in self.having)
        if self.order:
            sql += " ORDER BY " + ", ".join(self.order)
        if self.limit is not None:
            sql += f" LIMIT {self.limit}"
        if self.offset is not None:
            sql += f" OFFSET {self.offset}"
        params = [p for _, ps in (*self.conditions, *self.having) for p in ps]
        return {"sql": sql, "params": params}


G = TypeVar("G", bound="_GroupedBuilder")


class _GroupedBuilder:
    """One row per group: the grouped fields, then the aggregates in the order added, keyed by alias or text."""

    def __init__(self, state: _GroupState) -> None:
        self._state = state

    def _with(self: G, **change: Any) -> G:
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy._state = replace(self._state, **change)
        return copy

    def _aggregate(self: G, text: str, alias: Optional[str]) -> G:
        column = text if alias is None else f"{text} AS {_quote_alias(alias)}"
        return self._with(aggregates=(*self._state.aggregates, column))

    def count(self: G, alias: Optional[str] = None) -> G:
        """Adds ``COUNT(*)``: the documents of each group."""
        return self._aggregate("COUNT(*)", alias)

    def count_field(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``COUNT(field)``: the documents where the field holds a string, number or boolean."""
        return self._aggregate(f"COUNT({_quote_path(field_name)})", alias)

    def count_distinct(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``COUNT(DISTINCT field)``: the different values of the field."""
        return self._aggregate(f"COUNT(DISTINCT {_quote_path(field_name)})", alias)

    def sum(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``SUM(field)``: the sum of the field's numbers (strings and booleans are skipped; None when none)."""
        return self._aggregate(f"SUM({_quote_path(field_name)})", alias)

    def avg(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``AVG(field)``: the mean of the field's numbers."""
        return self._aggregate(f"AVG({_quote_path(field_name)})", alias)

    def min(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``MIN(field)`` in the order of ORDER BY (booleans < numbers < strings)."""
        return self._aggregate(f"MIN({_quote_path(field_name)})", alias)

    def max(self: G, field_name: str, alias: Optional[str] = None) -> G:
        """Adds ``MAX(field)`` in the order of ORDER BY."""
        return self._aggregate(f"MAX({_quote_path(field_name)})", alias)

    def having(self: G, name: str, op: WhereOperator, value: Union[SqlParam, Sequence[SqlParam]] = None) -> G:
        """Keeps the groups matching a condition on a grouped field or an alias: ``count("n").having("n", ">", 1)``."""
        return self._with(having=(*self._state.having, _condition(name, op, value)))

    def order_by(self: G, *names: str) -> G:
        """Sorts by grouped fields or aliases, ``-`` for descending: ``order_by("-n", "status")``."""
        order = [f"{_quote_path(n[1:])} DESC" if n.startswith("-") else f"{_quote_path(n)} ASC" for n in names]
        return self._with(order=(*self._state.order, *order))

    def limit(self: G, count: int) -> G:
        """At most this many groups (0 to 1000; the server's default is 100)."""
        return self._with(limit=_whole_number(count, "limit", 1000))

    def offset(self: G, count: int) -> G:
        """Skips this many groups first."""
        return self._with(offset=_whole_number(count, "offset", _MAX_OFFSET))

    def to_sql(self) -> CompiledQuery:
        """The statement and parameters this builder sends."""
        return self._state.compile()

    def _request(self) -> _m.SqlRequest:
        compiled = self.to_sql()
        return {"sql": compiled["sql"], "params": compiled["params"]}


class GroupedQueryBuilder(_GroupedBuilder):
    """``client.data.query("orders").group_by("status").count().sum("total").execute()``."""

    def __init__(self, data: Data, state: _GroupState) -> None:
        super().__init__(state)
        self._data = data

    def execute(self) -> _m.SqlResult:
        """Runs the query: ``{"data": rows, "query": <the translated query>}``."""
        return self._data.sql(self._request(), options=self._state.options)


class AsyncGroupedQueryBuilder(_GroupedBuilder):
    """The grouped query of the async client; ``await`` it for ``{"data", "query"}``."""

    def __init__(self, data: AsyncData, state: _GroupState) -> None:
        super().__init__(state)
        self._data = data

    async def execute(self) -> _m.SqlResult:
        """Runs the query: ``{"data": rows, "query": <the translated query>}``."""
        return await self._data.sql(self._request(), options=self._state.options)

    def __await__(self) -> Generator[Any, None, _m.SqlResult]:
        return self.execute().__await__()
