"""A club night written out as its file, ``club-night-result/1`` (night-format.md), from the
stored points and standings: the download, the API's export, the club's archive. The file is
read back in by ``games.nightfile``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from club.models import (
    Player,
)
from scoring.engine.games import game_module
from scoring.engine.night import (
    RESULT_FORMAT,
    rename_players,
    short_poule_warnings,
)
from scoring.engine.standings import decimal_string
from scoring.engine.tables import PRESET_GAME, preset_data
from scoring.models import PouleStanding, TournamentStanding

from .interclub_file import federation_entry
from .models import PointTable, Poule, Tournament, point_table_checksum


def _rules_document(point_table: PointTable) -> Any:
    name = point_table.name
    if name in PRESET_GAME and point_table.checksum == point_table_checksum(preset_data(name)):
        return name
    return point_table.data


def tournament_export(
    tournament: Tournament, name_of: Callable[[Player], str] | None = None
) -> dict[str, Any]:
    """The stored night as ``club-night-result/1``. ``name_of`` chooses how players are named
    (public exports pass the member's public name); the default is the display name."""
    name_of = name_of or (lambda player: player.display_name)
    poules = list(
        Poule.objects.filter(tournament=tournament)
        .order_by("round", "table")
        .prefetch_related("seats__player", "deals")
    )
    poule_lines: dict[int, list[PouleStanding]] = {}
    for line in PouleStanding.objects.filter(poule__tournament=tournament).select_related("player"):
        poule_lines.setdefault(line.poule_id, []).append(line)
    players: dict[int, Player] = {}
    for poule in poules:
        for seat in poule.seats.all():
            players.setdefault(seat.player_id, seat.player)
    names = _unique_names(players, name_of)

    doc_poules = []
    for poule in poules:
        seats = sorted(poule.seats.all(), key=lambda s: s.number)
        by_number = {str(s.number): names[s.player_id] for s in seats}
        deals = []
        for deal in sorted(poule.deals.all(), key=lambda d: d.position):
            data = rename_players(deal.data, lambda n, m=by_number: m.get(str(n), n))
            data["points"] = {by_number[str(s.number)]: deal.points[i] for i, s in enumerate(seats)}
            data["dealer"] = by_number.get(str(deal.dealer)) if deal.dealer else None
            deals.append(data)
        standings = sorted(poule_lines.get(poule.pk, []), key=lambda line: (line.rank, line.seat))
        # A poule longer than the club's count says so, as its sheet did: the file imports back.
        longer = {"longer": True} if _longer(tournament, poule, len(seats)) else {}
        doc_poules.append(
            {
                "round": poule.round,
                "table": poule.table,
                "seats": [names[s.player_id] for s in seats],
                "deals": deals,
                "standings": [
                    {
                        "player": names[line.player_id],
                        "rank": line.rank,
                        "tied": line.tied,
                        "game_points": line.game_points,
                        "tournament_points": decimal_string(line.tournament_points),
                    }
                    for line in standings
                ],
                **longer,
            }
        )
    standings = TournamentStanding.objects.filter(tournament=tournament).order_by("rank", "pk")
    document = {
        "format": RESULT_FORMAT,
        "club": tournament.club.name,
        "season": tournament.season.name,
        "date": tournament.date.isoformat(),
        "name": tournament.name,
        "game": tournament.game,
        "rules": _rules_document(tournament.point_table),
        "tournament_points": tournament.tournament_points,
        "players": [names[pk] for pk in players],
        "poules": doc_poules,
        "standings": [
            {
                "player": names[line.player_id],
                "rank": line.rank,
                "tied": line.tied,
                "tournament_points": decimal_string(line.tournament_points),
                "game_points": line.game_points,
                "poules_played": line.poules_played,
                "poules_won": line.poules_won,
            }
            for line in standings
        ],
        "warnings": _warnings(tournament, poules),
    }
    # A night without a name leaves the field out: the format refuses an empty name, and an
    # exported file must import back.
    if not tournament.name:
        del document["name"]
    # An inter-club night names its federation season after its host club and season.
    if (federation := federation_entry(tournament)) is not None:
        items = list(document.items())
        after = [key for key, _value in items].index("season") + 1
        document = dict([*items[:after], ("federation", federation), *items[after:]])
    return document


def _longer(tournament: Tournament, poule: Poule, seats: int) -> bool:
    return game_module(
        tournament.game
    ).FIXED_DEALS_PER_POULE and poule.counted_deals > tournament.deals_per_poule(seats)


def _unique_names(players: dict[int, Player], name_of: Callable[[Player], str]) -> dict[int, str]:
    # Two players may share a public name (two "J.D."): a file needs each name once.
    names: dict[int, str] = {}
    used: set[str] = set()
    for pk, player in players.items():
        name = name_of(player)
        candidate, n = name, 1
        while candidate in used:
            n += 1
            candidate = f"{name} ({n})"
        used.add(candidate)
        names[pk] = candidate
    return names


def _warnings(tournament: Tournament, poules: list[Poule]) -> list[str]:
    return short_poule_warnings(
        tournament.game,
        [(p.round, p.table, len(p.seats.all()), p.counted_deals) for p in poules],
        {seats: tournament.deals_per_poule(seats) for seats in (4, 5)},
    )
