"""Several statements sent to the database in one round trip, where it takes them so: the
score sheet's reads under the night's lock, after every deal. PostgreSQL (psycopg's
client-side binding, Django's default) runs them one after the other from one message, each
seeing what was committed before it started, as if sent one by one; SQLite takes one
statement a call, and gets them one by one (in the same process, a call costs nothing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection


def _in_one_message() -> bool:
    return connection.vendor == "postgresql" and (
        connection.settings_dict.get("OPTIONS", {}).get("server_side_binding") is not True
    )


def run_together(statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[tuple[Any, ...]]]:
    """Each statement's rows (a SELECT's, or a write's RETURNING; none for another write), in
    order, the statements run in that order."""
    results: list[list[tuple[Any, ...]]] = []
    with connection.cursor() as cursor:
        if not _in_one_message():
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall() if cursor.description else [])
            return results
        cursor.execute(
            ";\n".join(sql for sql, _params in statements),
            [value for _sql, params in statements for value in params],
        )
        while True:
            results.append(cursor.fetchall() if cursor.description else [])
            if not cursor.nextset():
                break
    return results
