"""The one raw writer: many rows of one table written at once by COPY on PostgreSQL, for the
imports, which write thousands of rows a night the engine has checked already, for the cote
and for the benchmarks' generators; the values are given in the columns' order. Elsewhere
(SQLite) the same rows go through the ORM (``bulk_create``).

COPY earns its place: one stream of rows, which the server reads without parsing a
statement or binding a parameter per value, and no model instance per row. Measured on
PostgreSQL (2 970 deals of a 40-player night, 2 cores): COPY 228 ms, ``bulk_create`` 852 ms
(3.7× faster). COPY sees no field's ``pre_save``: a column computed on save is given with
the row (the night's points in units, ``sheets.night_standing_row``), and
``tests/infra/test_rows.py`` pins the rows COPY stores to those the ORM stores."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson
from django.db import connection, models

# Columns whose value goes to the database as Python gives it (ids included); a field of
# another class (a subclass too: it may write its values its own way) prepares each value.
_AS_GIVEN = {
    models.IntegerField,
    models.SmallIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveIntegerField,
    models.BigIntegerField,
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.ForeignKey,
}

# Columns COPY reads from their value's plain text (a number, a date's ISO form, a UUID).
_TEXT_AS_GIVEN = (
    models.AutoField,
    models.BigAutoField,
    models.SmallAutoField,
    models.DateField,
    models.DecimalField,
    models.FloatField,
    models.UUIDField,
)


class Dumped(str):
    """A JSON value already dumped: written as it is."""


# What orjson writes itself: the plain values JSON holds (objects keyed by text, lists, texts,
# numbers, true, false, null), ten times faster than ``json.dumps`` (a night's deals: 0.2 µs a
# deal against 2.9 µs, its data and its points; 60 ms a batch of 50 nights); anything else (a
# subclass, a date, a dataclass, a key that is not text, an integer past 64 bits) it refuses,
# and the field's encoder writes it as ever. The column is jsonb: the text's layout is not
# kept, the value is the same. The values written are read from a JSON file or counted by the
# cote: never a NaN, which orjson would write as null and PostgreSQL's JSON refuses.
_PLAIN_JSON = (
    orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
)


def copy_value(field: models.Field) -> Callable[[Any], Any] | None:
    """How ``field``'s values are given to psycopg's ``write_row``, which writes each row's
    COPY text in C: None where the value goes as Python holds it (psycopg writes numbers,
    text, booleans, dates and UUIDs as the column reads them); JSON dumped with the field's
    encoder (unless ``Dumped`` already; a plain value by orjson, ``_PLAIN_JSON``); any other
    value prepared by its field."""
    if isinstance(field, models.JSONField):
        encoder = field.encoder
        dumps = orjson.dumps

        def json_text(value: Any) -> Any:
            if value is None and field.null:
                return None
            if isinstance(value, Dumped):
                return value
            if encoder is None:
                try:
                    return dumps(value, option=_PLAIN_JSON).decode()
                except TypeError:
                    pass  # not plain JSON (orjson.JSONEncodeError): as json writes it
            return json.dumps(value, cls=encoder)

        return json_text
    if type(field) in _AS_GIVEN or isinstance(field, _TEXT_AS_GIVEN):
        return None
    return lambda value: field.get_db_prep_save(value, connection)


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows`` (one value per name of ``columns``: field names, ``_id`` for a foreign
    key) into ``model``'s table. No id is returned. PostgreSQL takes them by COPY, which no
    field's ``pre_save`` sees: every column without a database default is named, a column
    computed on save (the points in units) given too; another database by ``bulk_create``,
    which gives each row the model's defaults and the fields' ``pre_save``.

    Each row's COPY text is written by psycopg in C (``write_row``), only the values that
    need it prepared here: joining the text in Python cost a third more for a deal's row."""
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows]
        )
        return
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    fields = [model._meta.get_field(name.removesuffix("_id")) for name in columns]
    rows_copy(model, fields, itertools.chain([first], rows))


def rows_copy(
    model: type[models.Model], fields: Sequence[models.Field], rows: Iterable[Sequence[Any]]
) -> None:
    """COPY ``rows`` (each the values of ``fields``' columns, in their order) into
    ``model``'s table (PostgreSQL): each row's text written by psycopg in C (``write_row``),
    only the values that need it prepared here (``copy_value``)."""
    prepared = [
        (index, prepare)
        for index, prepare in enumerate(copy_value(field) for field in fields)
        if prepare is not None
    ]
    quote = connection.ops.quote_name
    names = ", ".join(quote(field.column) for field in fields)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN") as copy:
            write = copy.write_row
            for row in rows:
                if prepared:
                    row = list(row)
                    for index, prepare in prepared:
                        row[index] = prepare(row[index])
                write(row)


def rows_checked() -> None:
    """The foreign keys of the rows written so far in the transaction checked now rather than
    at its commit (PostgreSQL: Django's ``check_constraints``, which sets every deferred
    constraint immediate, and so checks what waited, then deferred again; the same checks).
    An import asks for them while it rates its nights in another thread: the checks of a
    batch's 60 000 rows, 0.2 s of the server's time, are then no longer waited for at the
    commit. Elsewhere nothing: SQLite's check reads the whole database."""
    if connection.vendor == "postgresql":
        connection.check_constraints()


# When a table's planner statistics are stale: PostgreSQL's own rule for its autovacuum
# daemon (``autovacuum_analyze_threshold`` 50 rows, ``autovacuum_analyze_scale_factor`` a
# tenth of the table changed since its last analysis).
STALE_ROWS = 50
STALE_SHARE = 0.1


def statistics_sent() -> None:
    """This connection's counts of the rows it changed handed to PostgreSQL's statistics now,
    for ``tables_analysed`` to read (otherwise they go between transactions at most once a
    second). Between transactions only, on PostgreSQL 15 and later; elsewhere nothing."""
    # Outside an atomic block Django's connection is in autocommit (``get_autocommit`` opens
    # the connection first, so that its server's version is known).
    if (
        connection.vendor == "postgresql"
        and connection.get_autocommit()
        and connection.pg_version >= 150000
    ):
        with connection.cursor() as cursor:
            # Asked for in a statement of its own: the counts go as it ends.
            cursor.execute("SELECT pg_stat_force_next_flush()")


def tables_analysed(tables: Sequence[type[models.Model]]) -> list[str]:
    """Those of ``tables`` whose statistics are stale by PostgreSQL's own rule analysed again
    (its planner's statistics), now rather than at the daemon's next round; returns their
    names. With ``statistics_sent``, the import's other raw statements, which the ORM has no
    call for (``games.nightfile``). Analysing every table after every batch cost more than the
    nights once the tables held a federation's millions of rows (44 % of a decade's import)."""
    names = [model._meta.db_table for model in tables]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE relname = ANY(%s)"
            " AND n_mod_since_analyze > %s + %s * n_live_tup ORDER BY relname",
            [names, STALE_ROWS, STALE_SHARE],
        )
        stale = [name for (name,) in cursor.fetchall()]
        if stale:
            quoted = ", ".join(connection.ops.quote_name(name) for name in stale)
            cursor.execute(f"ANALYZE {quoted}")
    return stale
