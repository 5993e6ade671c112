"""The score sheet's one read, after every deal of the night: a poule's seats with their
players, the poule, its night, the night's club, season and point table (its grid left out:
the engine's table is kept per process, ``PointTable.engine_table``) and the viewer's role in
the club, in one statement whose text is made once per process from the models' columns.

Building that query through the ORM took most of the read's time (a join of seven tables,
the club's many columns, compiled anew for each deal); the instances made here are those the
ORM's ``select_related`` makes (``Model.from_db``, each column's database converters
applied), so nothing downstream tells them apart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, models

from club.models import Club, Membership, Player, Season

from .models import Deal, PointTable, Poule, Seat, Tournament

# Each table of the read: its alias, its model, the fields left out, and the instance its row
# hangs on (alias, foreign key's name).
_TABLES: tuple[tuple[str, type[models.Model], tuple[str, ...], tuple[str, str] | None], ...] = (
    ("s", Seat, (), None),
    ("pl", Player, (), ("s", "player")),
    ("po", Poule, (), ("s", "poule")),
    ("t", Tournament, (), ("po", "tournament")),
    ("c", Club, (), ("t", "club")),
    ("se", Season, (), ("t", "season")),
    ("pt", PointTable, ("data",), ("t", "point_table")),
)

Converter = Callable[[Any, Any, Any], Any]


class _Columns(NamedTuple):
    """A model's columns in a plain statement: their text, and how a row's values become the
    instance the ORM would make (``Model.from_db``, each column's converters applied)."""

    model: type[models.Model]
    select: list[str]
    names: list[str]
    converters: list[tuple[int, list[Converter], Any]]

    def instance(self, values: Sequence[Any]) -> models.Model:
        if self.converters:
            values = list(values)
            for index, found, column in self.converters:
                for convert in found:
                    values[index] = convert(values[index], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


def _columns(model: type[models.Model], alias: str, skip: Sequence[str] = ()) -> _Columns:
    q = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if f.attname not in skip]
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(alias)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((index, found, column))
    return _Columns(
        model,
        [f"{q(alias)}.{q(field.column)}" for field in fields],
        [field.attname for field in fields],
        converters,
    )


@cache
def _statement(vendor: str, signed_in: bool) -> tuple[str, list[_Columns]]:
    """The statement's text, and each table's columns in it."""
    q = connection.ops.quote_name
    models_of = {alias: model for alias, model, _skip, _on in _TABLES}
    select, layout, joins = [], [], []
    for alias, model, skip, on in _TABLES:
        columns = _columns(model, alias, skip)
        select += columns.select
        layout.append(columns)
        if on is not None:
            parent, name = on
            key = models_of[parent]._meta.get_field(name)
            joins.append(
                f"INNER JOIN {q(model._meta.db_table)} {q(alias)} ON "
                f"{q(parent)}.{q(key.column)} = {q(alias)}.{q(key.target_field.column)}"
            )
    membership, player = Membership._meta, Player._meta
    role = (
        f"(SELECT m.{q(membership.get_field('role').column)} "
        f"FROM {q(membership.db_table)} m INNER JOIN {q(player.db_table)} mp "
        f"ON m.{q(membership.get_field('player').column)} = mp.{q(player.pk.column)} "
        f"WHERE m.{q(membership.get_field('club').column)} = "
        f"t.{q(Tournament._meta.get_field('club').column)} "
        f"AND m.{q(membership.get_field('end').column)} IS NULL "
        f"AND mp.{q(player.get_field('user').column)} = %s LIMIT 1)"
        if signed_in
        else "NULL"
    )
    seat, poule, club = Seat._meta, Poule._meta, Club._meta
    sql = (
        f"SELECT {', '.join(select)}, {role} "
        f"FROM {q(seat.db_table)} s {' '.join(joins)} "
        f"WHERE s.{q(seat.get_field('poule').column)} = %s "
        f"AND po.{q(poule.get_field('tournament').column)} = %s "
        f"AND c.{q(club.get_field('slug').column)} = %s "
        f"ORDER BY s.{q(seat.get_field('number').column)}"
    )
    return sql, layout


def sheet_seats(
    user: User | AnonymousUser, slug: str, tournament_id: int, poule_id: int
) -> tuple[list[Seat], str | None]:
    """The poule's seats in seat order, each with its player and the one poule (with its
    night, club, season and point table) set on it, and the user's role in the club; no seat
    for a poule not of that night and club (or one without seats)."""
    signed_in = user.is_authenticated
    sql, layout = _statement(connection.vendor, signed_in)
    params = [user.pk] if signed_in else []
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, poule_id, tournament_id, slug])
        rows = cursor.fetchall()
    if not rows:
        return [], None
    seats: list[Seat] = []
    poule = None
    for row in rows:
        made: dict[str, models.Model] = {}
        start = 0
        for (alias, _model, _skip, on), columns in zip(_TABLES, layout, strict=True):
            values = row[start : start + len(columns.names)]
            start += len(columns.names)
            if poule is not None and alias not in ("s", "pl"):
                continue  # the same poule and night for every seat
            made[alias] = columns.instance(values)
            if on is not None:
                setattr(made[on[0]], on[1], made[alias])
        if poule is None:
            poule = made["po"]
        else:
            made["s"].poule = poule
        seats.append(made["s"])
    return seats, rows[0][-1]


@cache
def _deals_statement(vendor: str) -> tuple[str, _Columns]:
    q = connection.ops.quote_name
    columns = _columns(Deal, "d")
    deal = Deal._meta
    return (
        f"SELECT {', '.join(columns.select)} FROM {q(deal.db_table)} d "
        f"WHERE d.{q(deal.get_field('poule').column)} = %s "
        f"ORDER BY d.{q(deal.get_field('position').column)}"
    ), columns


def poule_deals_query(poule: Poule) -> tuple[str, list[Any]]:
    """The poule's deals in playing order (``poule.deals.order_by("position")``): a
    statement made once per process (the sheet is read again under the night's lock for every
    deal recorded), sent with the lock's (``scoring.services.deals``)."""
    return _deals_statement(connection.vendor)[0], [poule.pk]


def poule_deals_made(poule: Poule, rows: Sequence[Sequence[Any]]) -> list[Deal]:
    """The deals of ``poule_deals_query``'s rows."""
    columns = _deals_statement(connection.vendor)[1]
    deals = [columns.instance(row) for row in rows]
    for deal in deals:
        deal.poule = poule  # as the poule's own manager hands them
    return deals
