"""The bésigue family — scoring-rules.md §4, seed 002.

Per coup the scorer records, for each player, how many times he declared each combination
(``{"besigue": 1, "double_besigue": 1}`` is a double bésigue declared in two steps: 40 + 500),
the brisques (aces and tens) in his tricks where the table counts them, and who won the last
trick. A player's coup score is Σ count × value + brisque × brisques (where they score) + the
last-trick bonus.

How a poule is scored (decisions where the spec is silent):

- Each deal of the club-night file is one coup. ``target`` tables (bésigue, sans retourne, à
  trois, à quatre) add coups up into games: a game ends at the end of the coup in which a
  player (or team) reaches the target, and the next coup starts a new game at 0. A poule plays
  as many games as its coups make; a game still going after the last coup is not counted (a
  warning says so). ``one_coup`` tables (chinois, huit paquets, rubicon) make every deal a game.
- Winner of a target game: the highest total; equal highest totals go to the one of them who
  won the last trick. At three or four players, when none of the tied leaders won it, nobody
  has won yet and the game goes on for another coup.
- Value of a target game (the seed gives none): the winner's total − the loser's total, owed
  by each loser to the winner — so at three players the winner gets the sum of both
  differences. With ``teams`` (à quatre in partnership, seats 1+3 vs 2+4) the partners' coup
  scores are pooled and each winner gets +value, each loser −value.
- Value of a one-coup game: W − L + ``winner_bonus``, or, when the loser is rubicon,
  W + L + ``rubicon_bonus`` + ``rubicon_extra`` (rubicon: the 320 of the brisques). W and L are
  the totals with the tens dropped (2 950 → 2 900). The winner is the higher total with tens
  dropped; then with the tens; then (where brisques break ties) with the brisques; then the
  winner of the last trick. The rubicon test uses the loser's full total (plus his brisques
  where they "save a rubicon"): with thresholds in hundreds the tens cannot change it anyway.
- Game points: winners +value, losers −value, zero-sum. Deal points: each player's own coup
  score (brisques included only where they score), penalties added — the score sheet's line.
- Sanity checks per coup: brisques add up to 8 per deck; no more sevens of trump than decks;
  each cut bonus at most once. Declarations are not otherwise checked against the cards.
- The dealer is not recorded: ``PouleScore.dealers`` is ``None`` for every deal.

Chouette (three or more players around one chinois or rubicon game) is not a point table of its
own: ``chouette`` settles one game between the box and the captain's side, and
``chouette_next`` gives the order of play for the next game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from ..base import PouleScore, add_penalties
from ..errors import EngineError
from .besigue_deals import DEAL_KEYS, parse_deal
from .besigue_rules import (
    BRISQUE_USES,
    BRISQUES_PER_DECK,
    COMBINATIONS,
    GAME,
    PARTNERS,
    PLAYERS,
    Deal,
    OneCoupEnd,
    PointTable,
    TargetEnd,
    check_deal,
    load_table,
)

__all__ = [
    "BRISQUES_PER_DECK",
    "BRISQUE_USES",
    "COMBINATIONS",
    "DEAL_KEYS",
    "GAME",
    "PARTNERS",
    "PLAYERS",
    "Deal",
    "OneCoupEnd",
    "PointTable",
    "TargetEnd",
    "load_table",
    "parse_deal",
]

# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = False
RECORDS_DEALER = False
MORT_AT = None  # nobody sits out a deal
FIXED_DEALS_PER_POULE = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """A one-coup game: who won, what it is worth, and whether the loser was rubicon."""

    winner: int
    loser: int
    value: int
    rubicon: bool


def declared(point_table: PointTable, counts: Mapping[str, int]) -> int:
    """The points of a player's declarations: Σ count × value (540 = bésigue + double bésigue)."""
    total = 0
    for code, count in counts.items():
        if code not in point_table.combinations:
            raise EngineError(
                code,
                f'"{code}" is not a combination of point table "{point_table.name}"',
                "combination_not_in_table",
                {"combination": code, "table": point_table.label},
            )
        total += count * point_table.combinations[code]
    return total


def coup_scores(point_table: PointTable, deal: Deal) -> tuple[int, ...]:
    """Every seat's coup score: declarations, brisques where they score, and the last trick."""
    scores = []
    for seat, declarations in enumerate(deal.declarations):
        score = declared(point_table, dict(declarations))
        if point_table.brisques == "score" and deal.brisques is not None:
            score += point_table.brisque * deal.brisques[seat]
        if seat == deal.last_trick:
            score += point_table.last_trick
        scores.append(score)
    return tuple(scores)


def _without_tens(points: int) -> int:
    return points - points % 100


def game_value(point_table: PointTable, deal: Deal) -> GameResult:
    """The result of a one-coup game (chinois, huit paquets, rubicon) between seats 1 and 2."""
    end = point_table.end
    if not isinstance(end, OneCoupEnd):
        raise EngineError(
            "end",
            f'point table "{point_table.name}" plays to a target, not one coup',
            "not_one_coup",
            {"table": point_table.label},
        )
    full = coup_scores(point_table, deal)
    brisques = deal.brisques or (0,) * len(full)
    saving = [
        point_table.brisque * b if point_table.brisques == "tie_break" else 0 for b in brisques
    ]
    shown = [_without_tens(p) if end.drop_tens else p for p in full]

    def strength(seat: int) -> tuple[int, int, int, bool]:
        return shown[seat], full[seat], full[seat] + saving[seat], seat == deal.last_trick

    winner = max((0, 1), key=strength)
    loser = 1 - winner
    rubicon = full[loser] + saving[loser] < end.rubicon_below
    if rubicon:
        value = shown[winner] + shown[loser] + end.rubicon_bonus + end.rubicon_extra
    else:
        value = shown[winner] - shown[loser] + end.winner_bonus
    return GameResult(winner=winner, loser=loser, value=value, rubicon=rubicon)


def score_poule(point_table: PointTable, seat_count: int, deals: Sequence[Deal]) -> PouleScore:
    """Score a poule's coups: games to the target or one game per coup, then game points."""
    if seat_count != point_table.players:
        raise EngineError(
            "seats",
            f'point table "{point_table.name}" is for {point_table.players} players, '
            f"not {seat_count}",
            "table_size",
            {"minimum": point_table.players, "maximum": point_table.players, "got": seat_count},
        )
    everyone = tuple(range(seat_count))
    game_points = [0] * seat_count
    deal_points: list[tuple[int, ...]] = []
    warnings: list[str] = []
    sides = PARTNERS if point_table.teams else tuple((seat,) for seat in everyone)
    running = [0] * len(sides)
    coups_in_game = 0
    for index, deal in enumerate(deals):
        try:
            check_deal(point_table, deal, seat_count)
            row = list(coup_scores(point_table, deal))
        except EngineError as error:
            raise error.moved(f"deals[{index}]") from None
        if isinstance(point_table.end, OneCoupEnd):
            result = game_value(point_table, deal)
            game_points[result.winner] += result.value
            game_points[result.loser] -= result.value
        else:
            for side, members in enumerate(sides):
                running[side] += sum(row[seat] for seat in members)
            coups_in_game += 1
            winner = _target_winner(point_table.end, running, sides, deal.last_trick)
            if winner is not None:
                for side, members in enumerate(sides):
                    if side != winner:
                        value = running[winner] - running[side]
                        for seat in sides[winner]:
                            game_points[seat] += value
                        for seat in members:
                            game_points[seat] -= value
                running = [0] * len(sides)
                coups_in_game = 0
        if deal.penalties:
            add_penalties(row, deal.penalties, everyone)
            add_penalties(game_points, deal.penalties, everyone)
        deal_points.append(tuple(row))
    if coups_in_game:
        warnings.append(
            f"the last game is unfinished after {coups_in_game} coup"
            f"{'s' if coups_in_game > 1 else ''} (totals {', '.join(map(str, running))}) "
            "and is not counted"
        )
    return PouleScore(
        deal_points=tuple(deal_points),
        dealers=(None,) * len(deals),
        game_points=tuple(game_points),
        net=tuple(Fraction(p) for p in game_points),
        counted_deals=len(deals),
        counted=(True,) * len(deals),
        warnings=tuple(warnings),
    )


def _target_winner(
    end: TargetEnd, running: list[int], sides: tuple[tuple[int, ...], ...], last_trick: int
) -> int | None:
    best = max(running)
    if best < end.target:
        return None
    leaders = [side for side, total in enumerate(running) if total == best]
    if len(leaders) == 1:
        return leaders[0]
    # §4: equal totals past the target go to the winner of the last trick.
    return next((side for side in leaders if last_trick in sides[side]), None)


# --------------------------------------------------------------------------------------------
# Chouette (§4)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ChouetteSettlement:
    """What the box and each of his opponents get for one game of chouette (stakes)."""

    box: int
    each_opponent: int


# --------------------------------------------------------------------------------------------
# Scoring


def chouette(value: int, box_won: bool, opponents: int) -> ChouetteSettlement:
    """Settle one chouette game worth ``value`` between the box and ``opponents`` players.

    A winning box multiplies his value by the number of his opponents and each opponent pays
    it; a losing box pays the value to each opponent.
    """
    if opponents < 1:
        raise EngineError(
            "opponents",
            f"the box needs at least 1 opponent, got {opponents}",
            "chouette_opponents",
            {"got": opponents},
        )
    sign = 1 if box_won else -1
    return ChouetteSettlement(box=sign * value * opponents, each_opponent=-sign * value)


def chouette_next(order: Sequence[T], box_won: bool) -> tuple[T, ...]:
    """The order of the next game: ``(box, captain, first adviser, …)``.

    The box keeps his place when he wins and the captain goes behind the last adviser; when the
    box loses, the captain takes the box, the first adviser becomes captain and the old box
    becomes the last adviser (seed: Pierre, Jean, Jacques, Paul → Jean, Jacques, Paul, Pierre).
    """
    if len(order) < 2:
        raise EngineError(
            "order",
            f"a chouette needs at least 2 players, got {len(order)}",
            "chouette_players",
            {"got": len(order)},
        )
    box, captain, *advisers = order
    if box_won:
        return (box, *advisers, captain)
    return (captain, *advisers, box)
