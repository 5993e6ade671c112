"""Many rows of one table written at once, without a model instance per row: for the imports,
which write thousands of rows a night the engine has checked already, and for the benchmarks'
generators. The values are given in the columns' order.

PostgreSQL takes them by COPY (``rows_copy``): one stream of text lines, which the server
reads without parsing a statement or binding a parameter per value; a multi-row INSERT of a
night's deals cost more in the driver (splitting and quoting tens of thousands of
parameters) than the engine's reading of the file. SQLite takes multi-row INSERTs: values a
plain integer, boolean or text column takes as they are skip the model fields' preparation,
the others (JSON, decimals, dates) go through it."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

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

# COPY's text format: a backslash, a tab or a line end inside a value is escaped.
COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
COPY_CHUNK = 5000  # lines sent to the server at once
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


def copy_text(value: Any) -> str:
    """A value as COPY's text format writes it."""
    if value is None:
        return "\\N"
    if value is True or value is False:
        return "t" if value else "f"
    if isinstance(value, str):
        return value.translate(COPY_ESCAPES)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def copy_converter(field: models.Field) -> Callable[[Any], str]:
    """How ``field``'s values are written as COPY text: JSON dumped with the field's encoder
    (unless ``Dumped`` already), a plain column as it is, any other prepared by its field."""
    if isinstance(field, models.JSONField):
        encoder = field.encoder

        def json_text(value: Any) -> str:
            if value is None and field.null:
                return "\\N"
            if not isinstance(value, Dumped):
                value = json.dumps(value, cls=encoder)
            return value.translate(COPY_ESCAPES)

        return json_text
    if type(field) in _AS_GIVEN or isinstance(field, _TEXT_AS_GIVEN):
        return copy_text
    return lambda value: copy_text(field.get_db_prep_save(value, connection))


def rows_copy(
    model: type[models.Model], fields: Sequence[models.Field], lines: Iterable[str]
) -> None:
    """COPY ``lines`` (each a row of ``fields``' columns in COPY's text format, ending with a
    line end) into ``model``'s table (PostgreSQL)."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(field.column) for field in fields)
    chunk: list[str] = []
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN") as copy:
            for line in lines:
                chunk.append(line)
                if len(chunk) == COPY_CHUNK:
                    copy.write("".join(chunk))
                    chunk = []
            if chunk:
                copy.write("".join(chunk))


Statement = tuple[str, list[Any]]


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows`` (one value per name of ``columns``: field names, ``_id`` for a foreign
    key) into ``model``'s table. No default is filled in and no id is returned: every column
    without a database default is named."""
    if connection.vendor == "postgresql":
        # COPY: the driver neither splits nor quotes tens of thousands of parameters.
        fields = _fields(model, columns)
        rows = list(rows)
        if not rows:
            return
        convert = [copy_converter(field) for field in fields]
        rows_copy(
            model,
            fields,
            ("\t".join([c(v) for c, v in zip(convert, row, strict=True)]) + "\n" for row in rows),
        )
        return
    _run(insert_statements(model, columns, rows))


def insert_statements(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    returning: bool = False,
) -> list[Statement]:
    """``rows_insert``'s statements, to be sent with others (``infra.together``);
    ``returning``: each gives its new rows' ids in the rows' order (as ``bulk_create`` reads
    them)."""
    return _statements(model, columns, rows, f" RETURNING {_quoted_pk(model)}" if returning else "")


def upsert_statements(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    unique: Sequence[str],
) -> list[Statement]:
    """``insert_statements``, except that a row whose ``unique`` columns (a unique
    constraint's) match a stored row writes over that row's other columns (the score sheet's
    standings, after every deal); to be sent with others (``infra.together``). Values are
    written as given: a column computed on save (the points in units) is named and given too."""
    fields = _fields(model, columns)
    keys = {field.column for field in _fields(model, unique)}
    quote = connection.ops.quote_name
    return _statements(
        model,
        columns,
        rows,
        " ON CONFLICT({}) DO UPDATE SET {}".format(
            ", ".join(quote(field.column) for field in _fields(model, unique)),
            ", ".join(
                f"{quote(field.column)} = EXCLUDED.{quote(field.column)}"
                for field in fields
                if field.column not in keys
            ),
        ),
    )


def update_statement(model: type[models.Model], pk: Any, **values: Any) -> Statement:
    """One row's columns (field names) set by its id, a statement made without the ORM's
    compiler (the score sheet's poule count, after every deal)."""
    quote = connection.ops.quote_name
    fields = _fields(model, list(values))
    return (
        "UPDATE {} SET {} WHERE {} = %s".format(
            quote(model._meta.db_table),
            ", ".join(f"{quote(field.column)} = %s" for field in fields),
            _quoted_pk(model),
        ),
        [*_prepared(fields, list(values.values())), pk],
    )


def _run(statements: Sequence[Statement]) -> None:
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


def _quoted_pk(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.pk.column)


def _prepared(fields: Sequence[models.Field], row: Sequence[Any]) -> list[Any]:
    return [
        v if type(f) in _AS_GIVEN else f.get_db_prep_save(v, connection)
        for f, v in zip(fields, row, strict=True)
    ]


def _fields(model: type[models.Model], columns: Sequence[str]) -> list[models.Field]:
    return [model._meta.get_field(name.removesuffix("_id")) for name in columns]


def _statements(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]], tail: str
) -> list[Statement]:
    fields = _fields(model, columns)
    if any(type(field) not in _AS_GIVEN for field in fields):
        rows = (_prepared(fields, row) for row in rows)
    quote = connection.ops.quote_name
    head = "INSERT INTO {} ({}) VALUES ".format(
        quote(model._meta.db_table), ", ".join(quote(field.column) for field in fields)
    )
    one = "({})".format(", ".join(["%s"] * len(fields)))
    # As many rows a statement as the database takes parameters (SQLite: 999 at most).
    per_statement = (connection.features.max_query_params or 30_000) // len(fields)
    rows = list(rows)
    return [
        (
            head + ", ".join([one] * len(batch)) + tail,
            [value for row in batch for value in row],
        )
        for batch in (
            rows[start : start + per_statement] for start in range(0, len(rows), per_statement)
        )
    ]
