"""The club-night file of an inter-club night: its ``"federation"`` key and its visitors.

An inter-club night is held by a host club (the file's ``"club"``, as for any night) for a
federation season: ``"federation": {"name": …, "season": …}`` names both, as the federation
and its season are called on the site. Its visitors are players of the federation's other
clubs: they are found there by name and seated without joining the host club.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from club.models import Club, Federation, FederationSeason, Player
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.parsing import shown

from .models import Tournament

PLACE = "federation"


def federation_entry(tournament: Tournament) -> dict[str, str] | None:
    """What the file says of an inter-club night's federation season (None: a club night)."""
    season = tournament.federation_season
    if season is None:
        return None
    return {"name": season.federation.name, "season": season.name}


def _refused(message: str, code: str, **params: Any) -> DocumentRefused:
    return DocumentRefused([EngineError(PLACE, message, code, params)])


def federation_season_read(
    doc: Mapping[str, Any], club: Club, date: datetime.date
) -> FederationSeason | None:
    """The federation season the file's night is held for (None: a club night), refused,
    located at ``federation``, when it is not one the host club may hold a night for on
    that day. Nothing is written."""
    entry = doc.get(PLACE)
    if entry is None:
        return None
    name = entry.get("name") if isinstance(entry, Mapping) else None
    season_name = entry.get("season") if isinstance(entry, Mapping) else None
    if not (isinstance(name, str) and name.strip()) or not (
        isinstance(season_name, str) and season_name.strip()
    ):
        raise _refused(
            'expected {"name": the federation\'s name, "season": its season\'s name}, '
            f"got {shown(entry)}",
            "federation_shape",
        )
    # Stored as the site stores a federation's name (single spaces), like a club's.
    federation = Federation.objects.filter(name=" ".join(name.split())).first()
    if federation is None:
        raise _refused(f"no federation is called {shown(name)}", "federation_unknown")
    season = (
        FederationSeason.objects.select_related("federation")
        .filter(federation=federation, name=season_name.strip())
        .first()
    )
    if season is None:
        raise _refused(
            f"the federation {shown(name)} has no season {shown(season_name)}",
            "federation_season_unknown",
        )
    if not season.federation.clubs.filter(pk=club.pk).exists():
        raise _refused(
            f"{club.name} is not a club of the federation {season.federation.name}",
            "federation_not_a_club",
        )
    if not season.start <= date <= season.end:
        raise _refused(
            f"{date.isoformat()} is outside the federation season {season.name} "
            f"({season.start.isoformat()} to {season.end.isoformat()})",
            "federation_season_dates",
        )
    return season


def visitors_named(
    season: FederationSeason, host: Club, names: Sequence[str], places: Mapping[str, str]
) -> dict[str, Player]:
    """The players of the federation's other clubs called by one of ``names`` (as the site
    stores names), who play the night without joining the host club. A name two different
    players of those clubs bear is refused at its place in the file (``places``): the file
    cannot say which of them played."""
    if not names:
        return {}
    found: dict[str, list[Player]] = {}
    candidates = (
        Player.objects.filter(
            display_name__in=set(names),
            memberships__club__in=season.federation.clubs.exclude(pk=host.pk),
            merged_into__isnull=True,
        )
        .distinct()
        .order_by("pk")
    )
    for player in candidates:
        found.setdefault(player.display_name, []).append(player)
    twice = [name for name in names if len(found.get(name, [])) > 1]
    if twice:
        raise DocumentRefused(
            [
                EngineError(
                    places[name],
                    f"{shown(name)} is the name of {len(found[name])} players of the "
                    f"federation's clubs: the file cannot say which one played",
                    "federation_player_ambiguous",
                    {"player": name},
                )
                for name in twice
            ]
        )
    return {name: players[0] for name, players in found.items()}
