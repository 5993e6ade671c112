"""A member's cote beside his season on "Mes résultats": his cote at the season's club after
his latest rated night there, and what that night changed, read as the cote stored it
(``services.ratings``). One query, compiled once (``infra.compiled``)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet

from club.models import Player, Season
from infra.compiled import Compiled

from ..models import PlayerRating


@dataclass(frozen=True)
class CoteNow:
    """A member's cote at a club after his latest rated night there, and what that night
    changed: read as the cote stored it (``services.ratings``)."""

    mu: float
    change: float
    tournament_id: int
    date: datetime.date


def _latest_cote(player: int, club: int) -> QuerySet[PlayerRating]:
    return (
        PlayerRating.objects.filter(player=player, tournament__club=club)
        .order_by("-tournament__date", "-tournament_id")
        .values_list("mu", "change", "tournament_id", "tournament__date")[:1]
    )


_LATEST_COTE = Compiled(_latest_cote)


def cote_now(player: Player, club_id: int) -> CoteNow | None:
    """His cote at the club today (his latest rated night there), or None: one query."""
    rows = _LATEST_COTE(player.pk, club_id)
    return CoteNow(*rows[0]) if rows else None


def season_cote(player: Player, season: Season) -> CoteNow | None:
    """His cote at the season's club today (``cote_now``)."""
    return cote_now(player, season.club_id)
