"""The score sheet's two reads as plain statements, on PostgreSQL: they run for every deal of
a club night. Elsewhere (SQLite, a club's own computer) the ORM's queries of the same rows
run (``games.sheet_read.sheet_seats``, ``scoring.services.sheets.night_locked``), and
``tests/games/test_sheet_sql.py`` pins what each statement returns to what the ORM's query
returns.

They earn their place: the ORM compiles its statement anew for each deal, and these two are
the sheet's largest (the seats with five joined tables, 80 columns; the night's lines with a
filtered relation to the poule's deals). Measured on PostgreSQL, CPU per call on a 2-core
machine: the seats 4.4 ms by the ORM, 1.4 ms here; the night 3.4 ms by the ORM, 0.9 ms here.

Each table's columns are read as the table has them (``alias.*``), in the statement's order
of tables, and become the instance the ORM would make: the columns put in the model's order
by their names, each field's ``from_db_value`` applied (PostgreSQL's driver gives every
other value as Python has it), then ``Model.from_db``. Only the text below is written by
hand; no column list is made from the models."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection, models
from django.db.models import DEFERRED

from club.models import Club, Player

from .models import Deal, PointTable, Poule, Seat, Tournament

# A poule's seats in seat order, each row with its player, the poule, its night, the night's
# club and point table, in that order of tables (``SEAT_TABLES``), then the user's role in the
# club: his open membership's (``MembershipQuerySet.role_of``, the rule this copies and
# ``tests/games/test_sheet_sql.py`` holds it to).
SEATS = """
SELECT s.*, pl.*, po.*, t.*, c.*, pt.*,
       (SELECT m.role FROM club_membership m JOIN club_player mp ON mp.id = m.player_id
        WHERE m."end" IS NULL AND m.club_id = t.club_id AND mp.user_id = %(user)s
        ORDER BY m.id LIMIT 1)
FROM games_seat s
JOIN club_player pl ON pl.id = s.player_id
JOIN games_poule po ON po.id = s.poule_id
JOIN games_tournament t ON t.id = po.tournament_id
JOIN club_club c ON c.id = t.club_id
JOIN games_pointtable pt ON pt.id = t.point_table_id
WHERE s.poule_id = %(poule)s
ORDER BY s.number
"""
SEAT_TABLES: tuple[type[models.Model], ...] = (Seat, Player, Poule, Tournament, Club, PointTable)

# The night's row (locked by the caller's ``FOR UPDATE``), each poule's history count and
# every poule standing line of the night (scoring's table) in the order the night's standings
# read them, and the asked poule's deals in playing order: each deal joined to that poule's
# seat 1 line alone (or to the poule's one row while it has no lines), so that it comes once.
NIGHT = """
SELECT t.status, po.corrections, po.id, po.round, po."table",
       ps.player_id, ps.seat, ps.rank, ps.tied, ps.game_points, ps.tournament_points, d.*
FROM games_tournament t
LEFT JOIN games_poule po ON po.tournament_id = t.id
LEFT JOIN scoring_poulestanding ps ON ps.poule_id = po.id
LEFT JOIN games_deal d ON d.poule_id = po.id AND po.id = %(poule)s
     AND (ps.seat = 1 OR ps.seat IS NULL)
WHERE t.id = %(night)s
ORDER BY po.round, po."table", ps.rank, ps.seat, d.position
"""
NIGHT_COLUMNS = 11  # before the deal's own


def poule_seats(poule_id: int, user_id: int | None) -> tuple[list[tuple[models.Model, ...]], Any]:
    """The poule's seats in seat order, each as its seat and its player, the first one also
    with the poule, its night, the night's club and point table (``SEAT_TABLES``' order; the
    other rows repeat them, and are not read twice), and the role in the club of the user
    ``user_id`` (None for none). The point table's grid is left deferred: the engine's table
    is kept per process (``PointTable.engine_table``), and a grid of a few kB read and parsed
    for each deal was a third of this read."""
    with connection.cursor() as cursor:
        cursor.execute(SEATS, {"poule": poule_id, "user": user_id})
        readers = _readers(
            cursor, SEATS, SEAT_TABLES, skip=(0, 1), deferred={PointTable: ("data",)}
        )
        rows = cursor.fetchall()
    if not rows:
        return [], None
    seat, player = readers[:2]
    found: list[tuple[models.Model, ...]] = [(seat(row), player(row)) for row in rows]
    found[0] += tuple(read(rows[0]) for read in readers[2:])
    return found, rows[0][-1]


def night_rows(night_id: int, poule_id: int | None, *, lock: bool) -> list[tuple[Any, ...]]:
    """The night's rows as ``night_locked`` reads them from the ORM: its first
    ``NIGHT_COLUMNS`` values, then the deal's values in ``Deal``'s field order (None when
    the row has no deal)."""
    with connection.cursor() as cursor:
        cursor.execute(
            NIGHT + ("FOR UPDATE OF t" if lock else ""), {"night": night_id, "poule": poule_id}
        )
        (read,) = _readers(cursor, NIGHT, (Deal,), skip=(NIGHT_COLUMNS, 0), instances=False)
        return [(*row[:NIGHT_COLUMNS], *read(row[NIGHT_COLUMNS:])) for row in cursor.fetchall()]


Reader = Callable[[Sequence[Any]], Any]
# Each statement's readers, by its number of columns, worked out from its columns' names once
# per process: the driver makes the description's objects anew at every ask (80 for the seats).
# A table's columns change only by a migration, which the site's processes are started again
# for.
_READERS: dict[tuple[str, int], list[Reader]] = {}


def _readers(
    cursor: Any,
    statement: str,
    tables: Sequence[type[models.Model]],
    *,
    skip: tuple[int, int],
    instances: bool = True,
    deferred: dict[type[models.Model], tuple[str, ...]] | None = None,
) -> list[Reader]:
    """For each table of the statement just run, in order, what turns the row's values into
    its instance (or, ``instances`` off, into its values in the model's field order), the
    fields named in ``deferred`` left to load when first asked. ``skip``: the statement's
    columns before and after the tables' (a reader of the tables' columns alone is handed the
    row without those before)."""
    key = (statement, cursor.pgresult.nfields)
    found = _READERS.get(key)
    if found is None:
        before, after = skip
        names = tuple(column.name for column in cursor.description)
        names = names[before : len(names) - after]
        deferred = deferred or {}
        found, start = [], 0
        for model in tables:
            fields = model._meta.concrete_fields
            found.append(
                _reader(
                    model,
                    names[start : start + len(fields)],
                    offset=start,
                    instances=instances,
                    deferred=deferred.get(model, ()),
                )
            )
            start += len(fields)
        if start != len(names):
            raise RuntimeError(f"the sheet's statement reads {len(names)} columns, not {start}")
        _READERS[key] = found
    return found


def _reader(
    model: type[models.Model],
    names: Sequence[str],
    *,
    offset: int,
    instances: bool,
    deferred: Sequence[str],
) -> Reader:
    fields = model._meta.concrete_fields
    place = {name: offset + index for index, name in enumerate(names)}
    if sorted(place) != sorted(field.column for field in fields):
        raise RuntimeError(f"the table of {model.__name__} does not have the model's columns")
    order = [place[field.column] for field in fields]
    left = [index for index, field in enumerate(fields) if field.attname in deferred]
    convert = [
        (index, field.from_db_value)
        for index, field in enumerate(fields)
        if hasattr(field, "from_db_value") and index not in left
    ]
    attnames = [field.attname for field in fields]

    def values(row: Sequence[Any]) -> list[Any]:
        found = [row[index] for index in order]
        for index, from_db in convert:
            found[index] = from_db(found[index], None, connection)
        for index in left:
            found[index] = DEFERRED
        return found

    if not instances:
        return values
    return lambda row: model.from_db(connection.alias, attnames, values(row))
