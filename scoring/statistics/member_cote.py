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


# ``CoteNow``'s fields, each the column of his rating it is read from.
COTE_COLUMNS = {
    "mu": "mu",
    "change": "change",
    "tournament_id": "tournament_id",
    "date": "tournament__date",
}


def _latest_cote(player: int, club: int) -> QuerySet[PlayerRating]:
    return (
        PlayerRating.objects.filter(player=player, tournament__club=club)
        .order_by("-tournament__date", "-tournament_id")
        .values_list(*COTE_COLUMNS.values())[:1]
    )


_LATEST_COTE = Compiled(_latest_cote)


def cote_now(player: Player, club_id: int) -> CoteNow | None:
    """His cote at the club today (his latest rated night there), or None: one query."""
    rows = _LATEST_COTE(player.pk, club_id)
    return CoteNow(*rows[0]) if rows else None


def season_cote(player: Player, season: Season) -> CoteNow | None:
    """His cote at the season's club today (``cote_now``): as ``seasons_played`` read it with
    the season (``cote_*``), else read now."""
    if not hasattr(season, "cote_tournament_id"):
        return cote_now(player, season.club_id)
    if season.cote_tournament_id is None:
        return None
    return CoteNow(*(getattr(season, f"cote_{name}") for name in COTE_COLUMNS))
