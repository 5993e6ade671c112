"""Rows written in bulk by column, for the generators: COPY through psycopg 3 on PostgreSQL
(millions of rows in seconds, where ``bulk_create`` builds a model instance a row),
``bulk_create`` elsewhere (the tests' SQLite). Ids are given by the writer, so that rows of
one table can name rows of another before either is written; the sequences follow after.

The rows go through ``infra.rows`` (the imports' COPY too): a JSON value the generator dumped
once (``Dumped``, a deal repeated over thousands of poules) is not dumped again."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.management.color import no_style
from django.db import connection, models
from django.utils import timezone

from infra.rows import Dumped, rows_copy

__all__ = ["BulkWriter", "Dumped"]


class BulkWriter:
    """Rows written by column, ids given here: COPY on PostgreSQL, ``bulk_create`` elsewhere.
    Columns a row leaves out take the field's default (or now, for the stamps)."""

    def __init__(self) -> None:
        self.postgresql = connection.vendor == "postgresql"
        self.next_id: dict[type[models.Model], int] = {}
        self.written: dict[type[models.Model], int] = {}

    def ids(self, model: type[models.Model], count: int) -> range:
        if model not in self.next_id:
            last = model.objects.order_by("-pk").values_list("pk", flat=True).first()
            self.next_id[model] = (last or 0) + 1
        start = self.next_id[model]
        self.next_id[model] = start + count
        return range(start, start + count)

    def write(
        self, model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        rows = list(rows)
        if not rows:
            return
        self.written[model] = self.written.get(model, 0) + len(rows)
        if not self.postgresql:
            json_columns = {
                name
                for name in columns
                if isinstance(model._meta.get_field(name), models.JSONField)
            }
            model.objects.bulk_create(
                (
                    model(
                        **{
                            name: json.loads(value)
                            if name in json_columns and isinstance(value, Dumped)
                            else value
                            for name, value in zip(columns, row, strict=True)
                        }
                    )
                    for row in rows
                ),
                batch_size=2000,
            )
            return
        fields = list(model._meta.concrete_fields)
        given = {name: index for index, name in enumerate(columns)}
        now = timezone.now()
        # For each column: the row's index, or a constant (-1 and its value).
        plan = [
            (given[f.attname], None) if f.attname in given else (-1, _default(f, now))
            for f in fields
        ]
        rows_copy(
            model,
            fields,
            ([constant if index < 0 else row[index] for index, constant in plan] for row in rows),
        )

    def sequences_reset(self) -> None:
        """The next row the site inserts takes the id after the generated ones."""
        if self.postgresql and self.next_id:
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), list(self.next_id)):
                    cursor.execute(sql)


def _default(field: models.Field, now: datetime.datetime) -> Any:
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return now
    if field.has_default():
        default = field.get_default()
        return Dumped(json.dumps(default)) if isinstance(field, models.JSONField) else default
    if field.null:
        return None
    raise ValueError(f"{field} needs a value")
