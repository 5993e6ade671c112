"""The skill rating (« cote »): a rating with its uncertainty per player and game, from the
stored nights, beside the official ranking and never instead of it.

Not the engine: the rating is a model fitted to results (OpenSkill's Plackett–Luce, floats),
not a rule of the game; the engine's facts (the mort, lower is better) are read from it.

The model was chosen by measuring (``manage.py bench ratings``, docs/running-a-club.md "La
cote"): on a decade of generated nights whose players have a hidden true skill, rating each
deal as a match between the declaring side and the defenders predicts the next night's poules
better than rating each poule as a ranking of its players, or both. So:

- Belgian whist: each counted deal is a match of its sides — each declaring side (a pair in
  emballage and trou, one player in a solo; in the misères each declarer plays alone) against
  the defenders — ranked by the points each side scored; the mort sits out.
- Hearts, classic whist, bésigue: their deals have no declaring side; each deal ranks the
  active players by their points (hearts: fewest first; classic whist's partners score alike,
  so they tie).

A scale that does not drift: everybody starts at ``INITIAL_MU`` and the club's mean μ stays
there (``bench ratings`` prints how far it moves). OpenSkill gives each member of a side the
whole side's update and adds the members' μ into the side's strength, so a lone declarer who
makes his solo against three defenders takes less than the three lose, and the level of μ
itself decides whether one beats three: nights of solos made drained every μ below zero.
Hence, in each match:

- a side's strength is the start plus its members' distances from the start (a side of three
  average players is as strong as one average player, whatever the level);
- each member moves by his share of his side's update (the side's update divided by its size),
  so what one side gains the other loses (for players as well known). σ narrows as the model
  says.

And a night gives as much as it takes: what its players won together, because a player the
club knows less moves more than the known players he beat or lost to, they give back in equal
parts at the end of the night (a few thousandths of a point each, 0.016 at most over the
bench's decade). The club's mean μ stays at the start to the rounding of floats.

Deterministic: no randomness, nights in date order, poules by round and table, deals by
number. Uncertainty grows between seasons: at a player's first night of a new season his σ
grows by ``SEASON_SIGMA_GROWTH`` (capped at the starting σ).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import NormalDist
from typing import Any

from openskill.models import PlackettLuce

from scoring.engine.games import game_module

INITIAL_MU = 25.0
INITIAL_SIGMA = 25.0 / 3
BETA = 25.0 / 6
# A season away: the club does not know as well how a player plays now.
SEASON_SIGMA_GROWTH = 1.0
# The « ± » the pages show beside the cote, and what the « cote » page ranks by (the cote less
# it): a skill the club is almost sure of.
MARGIN_SIGMAS = 3
# The deals kept per player and night to say why his cote moved.
MOVES = 3
# How far the club's mean μ may stray from the start, ever: a hundredth of a point, the last
# digit the pages show (it stays there to the rounding of floats: docs/running-a-club.md "La
# cote" gives the measures, ``bench ratings`` prints them).
DRIFT_TOLERANCE = 0.01

DEALS = "deals"
POULES = "poules"
MIX = "mix"
METHODS = (DEALS, POULES, MIX)
# Chosen by ``manage.py bench ratings`` (docs/running-a-club.md "La cote").
METHOD = DEALS

_MODEL = PlackettLuce(mu=INITIAL_MU, sigma=INITIAL_SIGMA, beta=BETA)
_TAU_SQUARED = _MODEL.tau * _MODEL.tau


def rate_with_openskill(
    ratings: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """``PlackettLuce.rate`` itself, for the test that ``rate_match`` gives its numbers."""
    teams = [[_MODEL.rating(mu, sigma) for mu, sigma in team] for team in ratings]
    return [[(r.mu, r.sigma) for r in team] for team in _MODEL.rate(teams, ranks=list(ranks))]


@dataclass(frozen=True)
class DealSides:
    """One deal as a match: the sides (player ids), each side's place (0 best; equal places
    tie); ``key`` is the caller's name for the deal, given back with the deals that moved a
    player most."""

    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    key: Any = None


@dataclass(frozen=True)
class PouleRecord:
    """A poule as the rating reads it: its players, their ranks at the table, its deals."""

    players: tuple[int, ...]
    ranks: tuple[int, ...]
    deals: tuple[DealSides, ...]


@dataclass(frozen=True)
class NightRecord:
    key: int
    season: int
    poules: tuple[PouleRecord, ...]


@dataclass
class Rating:
    mu: float
    sigma: float
    deals: int = 0
    season: int | None = None
    # The model's own object, kept between deals (making one per deal costs a third of a
    # decade's rebuild).
    model: Any = field(default=None, repr=False, compare=False)

    def model_rating(self) -> Any:
        if self.model is None:
            self.model = _MODEL.rating(self.mu, self.sigma)
        return self.model

    @property
    def conservative(self) -> float:
        """What the « cote » page ranks by: the skill the club is quite sure of."""
        return self.mu - MARGIN_SIGMAS * self.sigma


@dataclass(frozen=True)
class NightRating:
    """A player's rating after a night, and what the night was expected to give him: the
    number of opponents he was expected to finish above in his poules, and how many he did
    (a tie counts a half); how much his μ moved over the night (from the start for a
    newcomer) and the deals that moved it most (``(key, change)``, largest first). What the
    change is made of, whole: ``moves``, then the ``other_deals`` deals not listed (their sum
    ``others``), then the night's final ``rebalance`` (the share he gives back or receives so
    that the night gives as much as it takes): ``change`` is their sum."""

    player: int
    mu: float
    sigma: float
    deals: int
    night_deals: int
    expected: float
    actual: float
    change: float = 0.0
    moves: tuple[tuple[Any, float], ...] = ()
    others: float = 0.0
    other_deals: int = 0
    rebalance: float = 0.0

    @property
    def conservative(self) -> float:
        return self.mu - MARGIN_SIGMAS * self.sigma


def mean_drift(mus: Iterable[float]) -> float:
    """How far the mean of these μ (a club's players) is from the start."""
    values = list(mus)
    return sum(values) / len(values) - INITIAL_MU if values else 0.0


def gap_for(probability: float, sigma: float = 0.0) -> float:
    """The difference of μ at which the stronger of two players whose σ is ``sigma`` finishes
    above the other with ``probability`` (``above_probability`` read backwards): what the
    page says a gap of cote means."""
    spread = math.sqrt(2 * BETA * BETA + 2 * sigma * sigma)
    return NormalDist().inv_cdf(probability) * spread


def _ranks(values: Sequence[float], lower_is_better: bool) -> tuple[int, ...]:
    """Competition places (0 best) of ``values``; equal values share a place."""
    if len(values) == 2:
        # Most deals: declarers against defenders.
        first, second = values
        if first == second:
            return (0, 0)
        return (0, 1) if (first < second) == lower_is_better else (1, 0)
    order = sorted(set(values), reverse=not lower_is_better)
    place = {value: index for index, value in enumerate(order)}
    return tuple(place[value] for value in values)


@cache
def _facts(game: str) -> tuple[bool, int | None]:
    module = game_module(game)
    return module.LOWER_IS_BETTER, module.MORT_AT


@cache
def _seat_names(count: int) -> tuple[str, ...]:
    """The seats' names at a table of ``count`` ("1", "2", …), as deals name declarers."""
    return tuple(str(number) for number in range(1, count + 1))


def deal_sides(
    game: str,
    seat_players: Sequence[int],
    data: Mapping[str, Any],
    points: Sequence[int],
    dealer: int | None,
    key: Any = None,
) -> DealSides | None:
    """A stored deal as a match (``dealer`` as stored: seat number from 1), or None when it
    tells nothing (a pass, every side scoring alike). ``key``: the caller's name for it.
    Called for every deal of a club's history when the cote is rewritten: plain loops."""
    count = len(seat_players)
    if len(points) != count:
        return None
    lower_is_better, mort_at = _facts(game)
    out = dealer - 1 if dealer is not None and mort_at == count else None
    declared = data.get("declarers")
    if declared:
        declarers = {str(seat) for seat in declared}
        names = _seat_names(count)
        # Declarers who scored alike play together (emballage, trou); in a misère each
        # declarer plays alone and may score otherwise. The defenders are one side.
        groups: dict[int, list[int]] = {}
        defenders: list[int] = []
        defended = 0  # the defenders' points (the first one's)
        for index in range(count):
            if index == out:
                continue
            if names[index] in declarers:
                groups.setdefault(points[index], []).append(seat_players[index])
            else:
                if not defenders:
                    defended = points[index]
                defenders.append(seat_players[index])
        values = sorted(groups, reverse=True)
        sides = [tuple(groups[value]) for value in values]
        if defenders:
            sides.append(tuple(defenders))
            values.append(defended)
    else:
        sides = [(seat_players[index],) for index in range(count) if index != out]
        values = [points[index] for index in range(count) if index != out]
    if len(sides) < 2 or len(set(values)) < 2:
        return None
    return DealSides(sides=tuple(sides), ranks=_ranks(values, lower_is_better), key=key)


def above_probability(a: Rating, b: Rating) -> float:
    """The chance that ``a`` finishes above ``b`` in a poule."""
    spread = math.sqrt(2 * BETA * BETA + a.sigma * a.sigma + b.sigma * b.sigma)
    return 0.5 * (1 + math.erf((a.mu - b.mu) / (spread * math.sqrt(2))))


def _rating(ratings: dict[int, Rating], player: int, season: int) -> Rating:
    rating = ratings.get(player)
    if rating is None:
        rating = ratings[player] = Rating(INITIAL_MU, INITIAL_SIGMA, 0, season)
    elif rating.season != season:
        rating.sigma = min(rating.sigma + SEASON_SIGMA_GROWTH, INITIAL_SIGMA)
        rating.season, rating.model = season, None
    return rating


def rate_match(
    ratings: dict[int, Rating], sides: Sequence[Sequence[int]], ranks: Sequence[int]
) -> None:
    """One match, as ``PlackettLuce.rate`` computes it (its dynamics τ added to each σ, the
    teams in the order of their places) on each member's μ less ``INITIAL_MU × (1 − 1/size)``
    (so a side weighs the start plus its members' distances from it), each member then moving
    by his share of his side's update (the module's docstring says why). On the players' own
    objects: ``rate`` deep-copies every rating first, two thirds of a decade's rebuild.
    ``test_ratings`` checks the numbers against ``rate``'s."""
    order = sorted(range(len(sides)), key=ranks.__getitem__)
    teams = []
    for index in order:
        team = []
        offset = INITIAL_MU * (1 - 1 / len(sides[index]))
        for player in sides[index]:
            rating = ratings[player]
            model = rating.model_rating()
            model.mu = rating.mu - offset
            model.sigma = math.sqrt(rating.sigma * rating.sigma + _TAU_SQUARED)
            team.append(model)
        teams.append(team)
    _MODEL._compute(teams=teams, ranks=[ranks[i] for i in order], scores=None, weights=None)
    for team, index in zip(teams, order, strict=True):
        size = len(sides[index])
        offset = INITIAL_MU * (1 - 1 / size)
        for model, player in zip(team, sides[index], strict=True):
            rating = ratings[player]
            rating.mu += (model.mu + offset - rating.mu) / size
            rating.sigma = model.sigma


def night_expected(
    ratings: Mapping[int, Rating], poule: PouleRecord
) -> dict[int, tuple[float, float]]:
    """Each player's expected and actual number of opponents finished above in ``poule``."""
    result = {}
    for a, rank_a in zip(poule.players, poule.ranks, strict=True):
        expected = actual = 0.0
        for b, rank_b in zip(poule.players, poule.ranks, strict=True):
            if a == b:
                continue
            expected += above_probability(ratings[a], ratings[b])
            actual += 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
        result[a] = (expected, actual)
    return result


def rate_night(
    ratings: dict[int, Rating], night: NightRecord, method: str = METHOD
) -> list[NightRating]:
    """Rate one night: ``ratings`` (by player id) moves on; returns each player's line."""
    expected: dict[int, list[float]] = {}
    night_deals: dict[int, int] = {}
    start: dict[int, float] = {}
    moves: dict[int, list[tuple[Any, float]]] = {}
    for poule in night.poules:
        for player in poule.players:
            start.setdefault(player, _rating(ratings, player, night.season).mu)
            night_deals.setdefault(player, 0)
        for player, (exp, act) in night_expected(ratings, poule).items():
            line = expected.setdefault(player, [0.0, 0.0])
            line[0] += exp
            line[1] += act
    for poule in night.poules:
        if method in (DEALS, MIX):
            for deal in poule.deals:
                before = [ratings[player].mu for side in deal.sides for player in side]
                rate_match(ratings, deal.sides, deal.ranks)
                players = (player for side in deal.sides for player in side)
                for player, mu in zip(players, before, strict=True):
                    night_deals[player] += 1
                    moves.setdefault(player, []).append((deal.key, ratings[player].mu - mu))
        if method in (POULES, MIX) and len(poule.players) > 1:
            rate_match(ratings, [(player,) for player in poule.players], poule.ranks)
            if method == POULES:
                for player in poule.players:
                    night_deals[player] += len(poule.deals)
    # The night gives as much as it takes: what its players won together (a player still
    # unsure moves more than the known players he beat) they give back in equal parts.
    net = sum(ratings[player].mu - start[player] for player in start)
    rebalance = -net / len(start) if start else 0.0
    for player in start:
        ratings[player].mu += rebalance
    lines = []
    for player in sorted(night_deals):
        rating = ratings[player]
        rating.deals += night_deals[player]
        exp, act = expected.get(player, (0.0, 0.0))
        change = rating.mu - start[player]
        played = moves.get(player, [])
        top = heapq.nlargest(MOVES, played, key=lambda move: abs(move[1]))
        lines.append(
            NightRating(
                player=player,
                mu=rating.mu,
                sigma=rating.sigma,
                deals=rating.deals,
                night_deals=night_deals[player],
                expected=exp,
                actual=act,
                change=change,
                moves=tuple(top),
                # What the listed deals and the rebalancing leave: the change stays their sum
                # exactly (a poule rated as a match, in the methods that do, counts here too).
                others=change - rebalance - sum(move[1] for move in top),
                other_deals=len(played) - len(top),
                rebalance=rebalance,
            )
        )
    return lines


def rate_nights(
    nights: Iterable[NightRecord],
    ratings: dict[int, Rating] | None = None,
    method: str = METHOD,
) -> tuple[dict[int, Rating], list[tuple[int, list[NightRating]]]]:
    """Rate ``nights`` in their order from ``ratings`` (none: everybody new)."""
    ratings = {} if ratings is None else ratings
    return ratings, [(night.key, rate_night(ratings, night, method)) for night in nights]
