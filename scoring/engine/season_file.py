"""A season ranking from club-night files (``python -m scoring.engine rank``): the nights are
read and scored as the site would, then ranked by the season's rules into
``season-ranking/1``."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .errors import DocumentRefused, EngineError
from .night import read_night
from .ranking import RankingRules, SeasonStanding, TournamentEntry, season_ranking
from .standings import TournamentStanding, decimal_string

RANKING_FORMAT = "season-ranking/1"


def rank_nights(
    docs: Sequence[Any], rules: RankingRules | None = None
) -> tuple[SeasonStanding, ...]:
    """The season ranking of several club nights, players matched by name.

    A refused night refuses the whole ranking; its problems are prefixed with ``nights[i]``.
    """
    entries: list[TournamentEntry] = []
    problems: list[EngineError] = []
    for index, doc in enumerate(docs):
        try:
            night = read_night(doc)
        except DocumentRefused as refused:
            problems.extend(error.moved(f"nights[{index}]") for error in refused.errors)
            continue
        entries.extend(night_entries(index, night.standings))
    if problems:
        raise DocumentRefused(problems)
    return season_ranking(entries, rules)


def ranking_document(standings: Sequence[SeasonStanding]) -> dict[str, Any]:
    return {
        "format": RANKING_FORMAT,
        "standings": [
            {
                "player": line.player,
                "rank": line.rank,
                "tied": line.tied,
                "tournament_points": decimal_string(line.tournament_points),
                "game_points": line.game_points,
                "tournaments_played": line.tournaments_played,
            }
            for line in standings
        ],
    }


def night_entries(
    night: Hashable, standings: Sequence[TournamentStanding]
) -> list[TournamentEntry]:
    """One night's standings as the season ranking reads them, the night named ``night``."""
    return [
        TournamentEntry(
            player=line.player,
            tournament=night,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            rank=line.rank,
        )
        for line in standings
    ]
