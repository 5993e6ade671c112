"""The score sheet's one read, after every deal of the night: a poule's seats with their
players, the poule, its night, the night's club and point table and the viewer's role in the
club, in one query.

The query is compiled anew for every deal, so it asks only what the sheet uses: the poule
alone is filtered on (its night and club are checked on the row read, which joins them
anyway) and the night's season is not joined (the sheet never shows it; ``Tournament.clean``
alone reads it). The point table's grid comes with it (a few kB, unused: the engine's table
is kept per process, ``PointTable.engine_table``): leaving it out (``defer``) cost the ORM
more Python than reading it. Counted on SQLite, the read's Python calls went from 11 061 to
8 749 (the old raw statement's: 973)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import CharField, OuterRef, Subquery, Value

from club.models import Membership

from .models import Seat


def sheet_seats(
    user: User | AnonymousUser, slug: str, tournament_id: int, poule_id: int
) -> tuple[list[Seat], str | None]:
    """The poule's seats in seat order, each with its player and the one poule (with its
    night, club and point table) set on it, and the user's role in the club; no seat for a
    poule not of that night and club (or one without seats)."""
    seats = list(
        Seat.objects.filter(poule_id=poule_id)
        .select_related("player", "poule__tournament__club", "poule__tournament__point_table")
        .annotate(viewer_role=_role(user))
        .order_by("number")
    )
    if not seats:
        return [], None
    # One poule (and night) for the whole sheet, as the poule's own manager hands its seats.
    poule = seats[0].poule
    if poule.tournament_id != tournament_id or poule.tournament.club.slug != slug:
        return [], None  # a poule of another night or club: not this address's
    for seat in seats[1:]:
        seat.poule = poule
    return seats, seats[0].viewer_role


def _role(user: User | AnonymousUser) -> Subquery | Value:
    """The user's role in the seat's club: his open membership's (``role_of``)."""
    if not user.is_authenticated:
        return Value(None, output_field=CharField())
    return Subquery(Membership.objects.role_of(user, OuterRef("poule__tournament__club")))
