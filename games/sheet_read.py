"""The score sheet's one read, after every deal of the night: a poule's seats with their
players, the poule, its night, the night's club and point table and the viewer's role in the
club (his open membership's, ``MembershipQuerySet.role_of``), in one query.

On PostgreSQL it is one plain statement (``games.sheet_sql``: the ORM's query of the same rows,
80 columns of six tables and the role's subquery, is compiled anew for every deal); elsewhere
the ORM's query below, which that statement is pinned to (``tests/games/test_sheet_sql.py``)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection

from club.permissions import role_in

from . import sheet_sql
from .models import Seat


def sheet_seats(
    user: User | AnonymousUser, slug: str, tournament_id: int, poule_id: int
) -> tuple[list[Seat], str | None]:
    """The poule's seats in seat order, each with its player and the one poule (with its
    night, club and point table) set on it, and the user's role in the club; no seat for a
    poule not of that night and club (or one without seats)."""
    seats, role = poule_seats(user, poule_id)
    if not seats:
        return [], None
    poule = seats[0].poule
    if poule.tournament_id != tournament_id or poule.tournament.club.slug != slug:
        return [], None  # a poule of another night or club: not this address's
    return seats, role


def poule_seats(user: User | AnonymousUser, poule_id: int) -> tuple[list[Seat], str | None]:
    """The poule's seats in seat order, each with its player, and the one poule (its night,
    the night's club and point table) set on every seat, as the poule's own manager hands
    its seats; and the user's role in the poule's club."""
    if connection.vendor == "postgresql":
        rows, role = sheet_sql.poule_seats(poule_id, user.pk if user.is_authenticated else None)
        if not rows:
            return [], None
        _seat, _player, poule, night, club, point_table = rows[0]
        night.club, night.point_table = club, point_table
        poule.tournament = night
        seats = []
        for seat, player, *_night in rows:
            seat.player, seat.poule = player, poule
            seats.append(seat)
        return seats, role
    return poule_seats_orm(user, poule_id)


def poule_seats_orm(user: User | AnonymousUser, poule_id: int) -> tuple[list[Seat], str | None]:
    """``poule_seats`` by the ORM: the query of every database but PostgreSQL, and the one
    its plain statement is pinned to."""
    seats = list(
        Seat.objects.filter(poule_id=poule_id)
        .select_related("player", "poule__tournament__club", "poule__tournament__point_table")
        .annotate(viewer_role=role_in(user, "poule__tournament__club"))
        .order_by("number")
    )
    for seat in seats[1:]:
        seat.poule = seats[0].poule
    return seats, seats[0].viewer_role if seats else None
