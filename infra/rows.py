"""Many rows of one table written in a statement, without a model instance per row: for the
imports, which write thousands of rows a night the engine has checked already. The values are
given in the columns' order; those a plain integer, boolean or text column takes as they are
skip the model fields' preparation, the others (JSON, decimals, dates) go through it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


Statement = tuple[str, list[Any]]


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows`` (one value per name of ``columns``: field names, ``_id`` for a foreign
    key) into ``model``'s table. No default is filled in and no id is returned: every column
    without a database default is named."""
    _run(insert_statements(model, columns, rows))


def rows_upsert(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    unique: Sequence[str],
) -> None:
    """``rows_insert``, a row whose ``unique`` columns (a unique constraint's) a stored row
    has already written over that row's other columns instead (the score sheet's standings,
    after every deal). Values are written as given: a column computed on save (the points
    in units) is named and given too."""
    _run(upsert_statements(model, columns, rows, unique))


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
    """``rows_upsert``'s statements, to be sent with others (``infra.together``)."""
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
