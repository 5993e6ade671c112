"""Statements compiled once: a page's query whose shape never changes, only the ids it is
asked for (a member's seasons, a player's ratings), built and compiled to SQL the first time
and then run again with each request's ids.

Django builds a queryset and compiles it to SQL on every request: for the few queries of a
page read by everybody after each night's close, that was a third of the page's time, more
than running them (Mes résultats, a player's statistics: some 0.5 ms a query of Exists,
subqueries and joins, against a tenth of that to bind new ids). The queryset is built once
with stand-in ids (``STAND_INS``), its SQL and parameters kept; each call binds its own ids in
the stand-ins' places and lets Django read the rows as it always does (model instances,
``select_related``, ``values_list``, the database's converters): only the compiling is
skipped.

A query fit for this: its ids (whole numbers, never None) or texts compared whole (a slug)
are the only values that change, and none changes its SQL (no list of a changing length,
no ``None``). The build is checked the first time: each stand-in must be a parameter of the
SQL, and nowhere written into it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler

# Ids no row has (they are negative), within a 32-bit column's range: Django answers a lookup
# beyond a column's range with no rows, without SQL.
STAND_INS = tuple(-1_987_654_321 + index for index in range(16))
# Texts no address holds (a slug), for the values given as text.
TEXT_STAND_INS = tuple(f"stand-in-{index}-of-infra-compiled" for index in range(16))


class Compiled:
    """``build(*ids)``'s rows, the queryset built and compiled once per database: call it with
    the ids (``Compiled(build)(player_id, club_id)``)."""

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self._build = build
        self._ready: dict[tuple[Any, ...], tuple[QuerySet, SQLCompiler, str, list[Any], list]] = {}

    def _compile(
        self, kinds: tuple[type, ...]
    ) -> tuple[QuerySet, SQLCompiler, str, list[Any], list]:
        stand_ins = [
            (STAND_INS if kind is int else TEXT_STAND_INS)[index]
            for index, kind in enumerate(kinds)
        ]
        template = self._build(*stand_ins)
        compiler = template.query.get_compiler(using=template.db)
        sql, params = compiler.as_sql()
        # Where each id goes among the parameters.
        places = [
            (position, stand_ins.index(value))
            for position, value in enumerate(params)
            if type(value) in (int, str) and value in stand_ins
        ]
        if {index for _position, index in places} != set(range(len(kinds))) or any(
            str(stand_in) in sql for stand_in in stand_ins
        ):
            raise ValueError(f"{self._build.__qualname__}: its ids are not all its parameters")
        return template, compiler, sql, list(params), places

    def __call__(self, *ids: int | str) -> list[Any]:
        kinds = tuple(type(value) for value in ids)
        if not all(kind is int or kind is str for kind in kinds) or len(ids) > len(STAND_INS):
            raise TypeError(f"{self._build.__qualname__}: ids or texts only, got {ids!r}")
        database = connections["default"]
        key = (database.vendor, database.settings_dict["NAME"], kinds)
        ready = self._ready.get(key)
        if ready is None:
            ready = self._ready[key] = self._compile(kinds)
        template, compiler, sql, params, places = ready
        bound = list(params)
        for position, index in places:
            bound[position] = ids[index]
        queryset = template._chain()
        # Django asks the query for its compiler when the rows are read: the one compiled
        # already, its SQL given with these ids.
        queryset.query.get_compiler = partial(_bound, compiler, sql, tuple(bound))
        return list(queryset)


def _bound(
    compiler: SQLCompiler,
    sql: str,
    params: tuple[Any, ...],
    using: str | None = None,
    connection: Any = None,
    elide_empty: bool = True,
) -> SQLCompiler:
    bound = copy.copy(compiler)
    bound.connection = connection if connection is not None else connections[using]
    bound.using = using
    bound.as_sql = lambda *args, **kwargs: (sql, params)  # type: ignore[method-assign]
    return bound
