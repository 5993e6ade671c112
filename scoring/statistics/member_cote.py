"""A member's cote beside his season on "Mes résultats": his cote at the season's club after
his latest rated night there, and what that night changed, read as the cote stored it
(``services.ratings``): as his seasons' summaries keep it (``cote_kept``), else in one
query, compiled once (``infra.compiled``)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from club.models import Player
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


def cote_kept(summaries: Iterable[Mapping[str, Any] | None]) -> tuple[CoteNow | None] | None:
    """His cote today as his own summaries of his seasons at a club keep it (each his cote
    after its latest rated night, ``seasons.season_summary``): the latest of them, in a
    tuple (None in it: no night of his rated there); None when one of them does not keep it
    (written before it was kept, or not written yet)."""
    latest = None
    for summary in summaries:
        if summary is None or "cote" not in summary:
            return None
        line = summary["cote"]
        if line is not None and (latest is None or (line[3], line[2]) > (latest[3], latest[2])):
            latest = line
    if latest is None:
        return (None,)
    mu, change, tournament_id, date = latest
    return (CoteNow(mu, change, tournament_id, datetime.date.fromisoformat(date)),)
