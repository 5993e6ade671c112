"""The season ranking (classement annuel) — scoring-rules.md §7."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import settings_error
from .ranks import competition_ranks
from .standings import check_precedence

SEASON_METRICS = ("tournament_points", "game_points", "tournaments_won", "tournaments_played")


@dataclass(frozen=True, slots=True)
class RankingRules:
    """A club's (or a season's) ranking rules.

    ``best_n`` — count only each player's N best tournaments (best by tournament points, then
    game points); ``None`` counts them all. ``min_tournaments`` — players who played fewer are
    listed apart, unranked. ``precedence`` — the metrics compared in turn; the first one is
    the ranking's metric.
    """

    best_n: int | None = None
    min_tournaments: int = 0
    precedence: tuple[str, ...] = ("tournament_points", "game_points")

    def __post_init__(self) -> None:
        if self.best_n is not None and self.best_n < 1:
            raise settings_error(
                "best_n", f"expected a number of tournaments ≥ 1, got {self.best_n}"
            )
        if self.min_tournaments < 0:
            raise settings_error(
                "min_tournaments", f"expected 0 or more, got {self.min_tournaments}"
            )
        check_precedence(self.precedence, SEASON_METRICS)


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """One player's result in one tournament of the season."""

    player: Hashable
    tournament: Hashable
    tournament_points: Fraction
    game_points: int
    rank: int


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """``rank`` is ``None`` for a player listed apart (fewer than ``min_tournaments``)."""

    player: Hashable
    rank: int | None
    tied: bool
    tournament_points: Fraction
    game_points: int
    tournaments_played: int
    tournaments_counted: int
    tournaments_won: int


@dataclass(frozen=True, slots=True)
class SeasonTotals:
    """A player's season summed, before ranking: what the ranking's metrics compare."""

    tournament_points: Fraction
    game_points: int
    tournaments_played: int
    tournaments_counted: int
    tournaments_won: int


def season_totals(
    entries: Sequence[TournamentEntry], rules: RankingRules | None = None
) -> dict[Hashable, SeasonTotals]:
    """Each player's season summed over his counted tournaments (the best N, if the rules say)."""
    rules = rules or RankingRules()
    by_player: dict[Hashable, list[TournamentEntry]] = {}
    for entry in entries:
        by_player.setdefault(entry.player, []).append(entry)

    totals: dict[Hashable, SeasonTotals] = {}
    for player, played in by_player.items():
        counted = played
        if rules.best_n is not None and len(played) > rules.best_n:
            # Some Belgian clubs keep the 18 best evenings: by tournament points, then game points.
            counted = sorted(played, key=lambda e: (-e.tournament_points, -e.game_points))[
                : rules.best_n
            ]
        totals[player] = SeasonTotals(
            tournament_points=sum((e.tournament_points for e in counted), Fraction(0)),
            game_points=sum(e.game_points for e in counted),
            tournaments_played=len(played),
            tournaments_counted=len(counted),
            tournaments_won=sum(1 for e in played if e.rank == 1),
        )
    return totals


def rank_season(
    totals: Mapping[Hashable, SeasonTotals], rules: RankingRules | None = None
) -> tuple[SeasonStanding, ...]:
    """Rank players from their season totals: ranked players first, then those not yet ranked.
    A store that sums the totals itself (the site's database) ranks them here too."""
    rules = rules or RankingRules()

    def key(player: Hashable) -> tuple[Any, ...]:
        return tuple(-getattr(totals[player], metric) for metric in rules.precedence)

    def line(player: Hashable, rank: int | None, tied: bool) -> SeasonStanding:
        sums = totals[player]
        return SeasonStanding(
            player=player,
            rank=rank,
            tied=tied,
            tournament_points=sums.tournament_points,
            game_points=sums.game_points,
            tournaments_played=sums.tournaments_played,
            tournaments_counted=sums.tournaments_counted,
            tournaments_won=sums.tournaments_won,
        )

    ranked = [p for p in totals if totals[p].tournaments_played >= rules.min_tournaments]
    apart = [p for p in totals if totals[p].tournaments_played < rules.min_tournaments]
    standings = [line(p, rank, tied) for p, rank, tied in competition_ranks(ranked, key=key)]
    standings += [line(p, None, False) for p in sorted(apart, key=key)]
    return tuple(standings)


def season_ranking(
    entries: Sequence[TournamentEntry], rules: RankingRules | None = None
) -> tuple[SeasonStanding, ...]:
    """Rank a season's players: ranked players first, then those not yet ranked."""
    return rank_season(season_totals(entries, rules), rules)
