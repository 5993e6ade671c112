"""Poule standings, tournament points and tournament standings — scoring-rules.md §5 and §6."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .base import PouleScore
from .errors import at, settings_error
from .parsing import shown
from .ranks import competition_ranks


@dataclass(frozen=True, slots=True)
class Scheme:
    """How a poule's ranks turn into tournament points.

    ``places`` — the points of place 1, 2, 3 …; places beyond the list get 0.
    ``positive_from_place`` — from this place on, a place pays only to players whose net is
    positive (RCWhist: the second and the third "s'il est en positif"); ``None`` = never.
    ``ties`` — "average": tied players share the points of the places they occupy together.
    """

    places: tuple[int, ...]
    positive_from_place: int | None = None
    ties: str = "average"
    name: str = ""

    @property
    def total(self) -> int:
        return sum(self.places)


SCHEMES = {
    "rcwhist": Scheme(places=(5, 3, 1), positive_from_place=2, name="rcwhist"),
    "freewhist": Scheme(places=(90, 60, 30, 0), positive_from_place=None, name="freewhist"),
}


def scheme(value: Any, place: str = "tournament_points") -> Scheme:
    """A scheme by preset name, or an inline ``{"places", "positive_from_place", "ties"}``."""
    if isinstance(value, str):
        if value not in SCHEMES:
            raise settings_error(place, f'unknown scheme "{value}"; known: {", ".join(SCHEMES)}')
        return SCHEMES[value]
    if not isinstance(value, Mapping):
        raise settings_error(place, f"expected a scheme name or an object, got {shown(value)}")
    places = value.get("places")
    if (
        not isinstance(places, list)
        or not places
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in places)
    ):
        raise settings_error(
            at(place, "places"), f"expected a list of non-negative integers, got {shown(places)}"
        )
    positive = value.get("positive_from_place")
    if positive is not None and (
        not isinstance(positive, int) or isinstance(positive, bool) or positive < 1
    ):
        raise settings_error(
            at(place, "positive_from_place"), f"expected null or a place ≥ 1, got {shown(positive)}"
        )
    ties = value.get("ties", "average")
    if ties != "average":
        raise settings_error(at(place, "ties"), f'only "average" is supported, got {shown(ties)}')
    return Scheme(
        places=tuple(places),
        positive_from_place=positive,
        ties=ties,
        name=str(value.get("name", "")),
    )


@dataclass(frozen=True, slots=True)
class PouleStanding:
    seat: int
    rank: int
    tied: bool
    game_points: int
    tournament_points: Fraction


def poule_standings(score: PouleScore, points_scheme: Scheme) -> tuple[PouleStanding, ...]:
    """Rank a poule's seats and award tournament points; best first, ties in seat order.

    Ties share the points of the places they occupy together, each place judged with the
    positivity condition: two tied first → (5 + 3) / 2 = 4 each, two tied second → 2 each.
    """
    sign = 1 if score.lower_is_better else -1
    ranked = competition_ranks(
        range(len(score.game_points)), key=lambda s: sign * score.game_points[s]
    )
    standings = []
    index = 0
    while index < len(ranked):
        rank = ranked[index][1]
        group = [seat for seat, r, _ in ranked[index:] if r == rank]
        # Tied players have equal game points, hence equal nets: the group is positive or not.
        positive = score.net[group[0]] > 0
        pot = 0
        for place in range(rank, rank + len(group)):
            if place > len(points_scheme.places):
                break
            needs_positive = (
                points_scheme.positive_from_place is not None
                and place >= points_scheme.positive_from_place
            )
            if positive or not needs_positive:
                pot += points_scheme.places[place - 1]
        share = Fraction(pot, len(group))
        for seat in group:
            standings.append(
                PouleStanding(
                    seat=seat,
                    rank=rank,
                    tied=len(group) > 1,
                    game_points=score.game_points[seat],
                    tournament_points=share,
                )
            )
        index += len(group)
    return tuple(standings)


@dataclass(frozen=True, slots=True)
class PouleResult:
    """One player's line in one poule, as the tournament standings read it."""

    player: Hashable
    rank: int
    game_points: int
    tournament_points: Fraction


@dataclass(frozen=True, slots=True)
class TournamentStanding:
    player: Hashable
    rank: int
    tied: bool
    tournament_points: Fraction
    game_points: int
    poules_played: int
    poules_won: int


DEFAULT_PRECEDENCE = ("tournament_points", "game_points")
# Metrics a club may list in its precedence; every one is "more is better", except game points
# at hearts (a total of penalty points: less is better).
TOURNAMENT_METRICS = ("tournament_points", "game_points", "poules_won")


def check_precedence(
    precedence: Sequence[str], known: Sequence[str], place: str = "precedence"
) -> None:
    if not precedence:
        raise settings_error(place, "needs at least one metric")
    for index, metric in enumerate(precedence):
        if metric not in known:
            raise settings_error(
                at(place, index), f'unknown metric "{metric}"; known: {", ".join(known)}'
            )


def tournament_standings(
    results: Sequence[PouleResult],
    precedence: Sequence[str] = DEFAULT_PRECEDENCE,
    lower_game_points_better: bool = False,
) -> tuple[TournamentStanding, ...]:
    """Sum each player's poules and rank the players by the precedence list (§6).

    Players keep the order of their first poule result among equals, so output is stable.
    """
    check_precedence(precedence, TOURNAMENT_METRICS)
    totals: dict[Hashable, list[Any]] = {}
    for result in results:
        line = totals.setdefault(result.player, [Fraction(0), 0, 0, 0])
        line[0] += result.tournament_points
        line[1] += result.game_points
        line[2] += 1
        line[3] += result.rank == 1
    game_sign = 1 if lower_game_points_better else -1

    def key(player: Hashable) -> tuple[Any, ...]:
        tp, gp, _, won = totals[player]
        values = {"tournament_points": -tp, "game_points": game_sign * gp, "poules_won": -won}
        return tuple(values[m] for m in precedence)

    return tuple(
        TournamentStanding(
            player=player,
            rank=rank,
            tied=tied,
            tournament_points=totals[player][0],
            game_points=totals[player][1],
            poules_played=totals[player][2],
            poules_won=totals[player][3],
        )
        for player, rank, tied in competition_ranks(list(totals), key=key)
    )


def hundredths(value: Fraction | int) -> int:
    """Points in whole hundredths, rounded half away from zero (as the club rounds): the one
    rounding rule of every page, export, e-mail and file. ``17/8`` → 213, ``-17/8`` → -213."""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    # ⌊|n|/d × 100 + ½⌋ in integers: a page writes hundreds of points, and Fraction's own
    # arithmetic (a gcd per step) was most of their cost.
    numerator, denominator = value.numerator, value.denominator
    whole = (200 * abs(numerator) + denominator) // (2 * denominator)
    return -whole if numerator < 0 else whole


def points_text(value: Fraction | int, point: str = ".", *, places_always: bool = False) -> str:
    """Points as the pages write them: a whole value as it is ("5"), any other with two
    decimals ("2,50", "1,33") after ``point``, the reader's decimal separator;
    ``places_always``: two decimals for a whole value too ("5,00"). Rounded by ``hundredths``
    from the exact value, never through a float."""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    return ratio_text(value.numerator, value.denominator, point, places_always=places_always)


def ratio_text(
    numerator: int, denominator: int, point: str = ".", *, places_always: bool = False
) -> str:
    """``points_text`` of ``numerator / denominator`` (a positive denominator), the two not
    made a ``Fraction`` first: « Mes résultats » writes a season's running totals kept in
    whole units, two a night, and reducing each by its gcd was most of their cost. The same
    rounding (``hundredths``' arithmetic holds for any pair of the same ratio)."""
    if numerator % denominator == 0 and not places_always:
        return str(numerator // denominator)
    whole = (200 * abs(numerator) + denominator) // (2 * denominator)
    sign = "-" if numerator < 0 and whole else ""
    return f"{sign}{whole // 100}{point}{whole % 100:02d}"


def decimal_string(value: Fraction | int) -> str:
    """Tournament points as written in files: exact when they can be, else 2 decimals.

    ``5`` → "5", ``1/2`` → "0.5", ``4/3`` → "1.33" (half away from zero, as the club rounds).
    """
    text = points_text(value)
    return text.rstrip("0").rstrip(".") if "." in text else text
