"""Hearts (Les Cœurs) — scoring-rules.md §3, seed 001.

3 to 7 players, each for himself; points are bad: the lowest total wins. Per deal the scorer
records the hearts each player took (13 in all) and who took the queen of spades, or the player
who revoked or mixed up his tricks.

Decisions where the spec is silent:

- A player left out of ``hearts`` took none (a paper sheet often leaves zeros blank).
- ``revoke`` and ``mixed_tricks`` each take one name or a list of names: the seed gives every
  revoking player 25 ("chacun se voit imposer une amende de 25 points"). Play stops when a
  revoke is found, so such a deal needs no ``hearts`` nor ``queen_of_spades``; when given they
  are checked for names and numbers but not used.
- Taking all gives every other player what the taker would have scored: 13 hearts + the queen
  (25, or 26 with the queen at 13), so it follows the table and needs no number of its own.
- A penalty (``{"player", "points"}``, the player pays ``p`` to each other player) works in
  hearts' own direction: the offender's total goes up by ``p`` for each other player and every
  other player's goes down by ``p``. Deal points include it.
- Deal points are each player's points for the deal; game points the poule totals (ranked
  ascending); ``net`` is table average − own total, a ``Fraction``.
- The dealer starts at seat 1 and moves one seat clockwise each deal (seed: "le joueur assis à
  sa gauche donnera les cartes au coup suivant").
- A partie is ``partie_deals`` deals (1 or 5 in the presets); a poule whose deals do not make
  whole parties is scored all the same, with a warning. ``parties`` gives each partie's totals
  for the settlements, which the table names (``settlement``) for the UI to show.
- Tied winners share the winner's stakes as exact fractions (the seed draws lots for an odd
  remainder; the engine never draws lots), and so do several players at 0 taking the pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import Penalty, PouleScore, add_penalties
from ..dealkeys import DEALER, NAME, PENALTIES, Either, Fields, Integer, Keyed, ListOf, deal_reader
from ..errors import EngineError, at
from ..parsing import (
    int_field,
    is_int,
    not_at_table,
    parse_penalties,
    shown,
    table_error,
    table_header,
)

GAME = "hearts"
PLAYERS = range(3, 8)
# The game's facts, read by the site through the game registry (games/__init__.py).
LOWER_IS_BETTER = True
RECORDS_DEALER = True
MORT_AT = None  # nobody sits out a deal
FIXED_DEALS_PER_POULE = False
HEARTS = 13
SETTLEMENTS = ("winner", "average", "pot")


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    heart: int
    queen_of_spades: int
    revoke: int
    partie_deals: int
    settlement: str
    game: str = GAME

    @property
    def taking_all(self) -> int:
        """What each other player scores when one player takes all the hearts and the queen."""
        return HEARTS * self.heart + self.queen_of_spades


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as recorded; players are seat indexes (0 = seat 1).

    ``hearts`` has one count per seat; it and ``queen_of_spades`` are ``None`` when the deal
    ended on a revoke or mixed-up tricks, whose players are the ``offenders``.
    """

    hearts: tuple[int, ...] | None
    queen_of_spades: int | None
    offenders: tuple[int, ...] = ()
    penalties: tuple[Penalty, ...] = ()


@dataclass(frozen=True, slots=True)
class Pot:
    """The pot after a partie: what each player put in and took out, and what carries over."""

    paid: tuple[int, ...]
    taken: tuple[Fraction, ...]
    carried_over: int


# --------------------------------------------------------------------------------------------
# Point tables


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a hearts point table and return it frozen.

    Shape: ``{"format": "point-table/1", "game": "hearts", "name", "label",
    "heart": 1, "queen_of_spades": 12, "revoke": 25, "partie_deals": 1 or 5,
    "settlement": "winner" | "average" | "pot"}`` — the points of one heart, of the queen of
    spades and of a revoke (or mixed tricks), the deals in a partie, and the settlement shown.
    """
    name, label = table_header(data, place, GAME)
    settlement = data.get("settlement")
    if settlement not in SETTLEMENTS:
        wanted = " or ".join(f'"{s}"' for s in SETTLEMENTS)
        raise table_error(at(place, "settlement"), f"expected {wanted}, got {shown(settlement)}")
    return PointTable(
        name=name,
        label=label,
        heart=int_field(data, "heart", place, 0),
        queen_of_spades=int_field(data, "queen_of_spades", place, 0),
        revoke=int_field(data, "revoke", place, 0),
        partie_deals=int_field(data, "partie_deals", place, 1),
        settlement=settlement,
    )


# --------------------------------------------------------------------------------------------
# Scoring


def score_deal(point_table: PointTable, deal: Deal, seat_count: int) -> tuple[int, ...]:
    """Every seat's points for one deal, penalties not included."""
    if deal.offenders:
        return tuple(point_table.revoke if s in deal.offenders else 0 for s in range(seat_count))
    if deal.hearts is None or deal.queen_of_spades is None:
        raise EngineError(
            "hearts",
            "a deal without a revoke needs the hearts and the queen of spades",
            "hearts_missing",
        )
    queen = deal.queen_of_spades
    if deal.hearts[queen] == HEARTS:
        # "Le contrôle": the taker scores 0 and everybody else what he would have scored.
        return tuple(0 if s == queen else point_table.taking_all for s in range(seat_count))
    return tuple(
        h * point_table.heart + (point_table.queen_of_spades if s == queen else 0)
        for s, h in enumerate(deal.hearts)
    )


def score_poule(point_table: PointTable, seat_count: int, deals: Sequence[Deal]) -> PouleScore:
    """Score a poule: per-deal points, totals (lower is better) and net = average − total."""
    if seat_count not in PLAYERS:
        raise EngineError(
            "seats",
            f"hearts is played by 3 to 7 players, not {seat_count}",
            "table_size",
            {"minimum": PLAYERS.start, "maximum": PLAYERS.stop - 1, "got": seat_count},
        )
    everyone = tuple(range(seat_count))
    totals = [0] * seat_count
    deal_points: list[tuple[int, ...]] = []
    for index, deal in enumerate(deals):
        try:
            points = list(score_deal(point_table, deal, seat_count))
        except EngineError as error:
            raise error.moved(f"deals[{index}]") from None
        if deal.penalties:
            # A penalty costs its player: his total goes up, so apply the transfer reversed.
            transfer = [0] * seat_count
            add_penalties(transfer, deal.penalties, everyone)
            points = [p - t for p, t in zip(points, transfer, strict=True)]
        for seat, p in enumerate(points):
            totals[seat] += p
        deal_points.append(tuple(points))
    average = Fraction(sum(totals), seat_count)
    warnings = []
    left = len(deals) % point_table.partie_deals
    if left:
        warnings.append(
            f"the last partie has {left} of {point_table.partie_deals} deals: "
            "the poule is scored on all its deals all the same"
        )
    return PouleScore(
        deal_points=tuple(deal_points),
        dealers=tuple(i % seat_count for i in range(len(deals))),
        game_points=tuple(totals),
        net=tuple(average - t for t in totals),
        lower_is_better=LOWER_IS_BETTER,
        counted_deals=len(deals),
        counted=(True,) * len(deals),
        warnings=tuple(warnings),
    )


def parties(point_table: PointTable, score: PouleScore) -> tuple[tuple[int, ...], ...]:
    """Each whole partie's totals per seat (``partie_deals`` deals each), for the settlements."""
    size = point_table.partie_deals
    whole = len(score.deal_points) - len(score.deal_points) % size
    return tuple(
        tuple(sum(column) for column in zip(*score.deal_points[start : start + size], strict=True))
        for start in range(0, whole, size)
    )


# --------------------------------------------------------------------------------------------
# Settlements (§3): balances in stakes, positive = receives


def settle_winner_takes(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """(a) Each player pays the winner (own total − winner total); tied winners share."""
    best = min(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    share = Fraction(sum(total - best for total in totals), len(winners))
    return tuple(share if total == best else Fraction(best - total) for total in totals)


def settle_average(totals: Sequence[int]) -> tuple[int, ...]:
    """(b) Each player receives (average − own total), truncated toward zero (66 → pays 20)."""
    average = Fraction(sum(totals), len(totals))
    return tuple(int(average - total) for total in totals)


def settle_pot(totals: Sequence[int], carried_over: int = 0) -> Pot:
    """(c) Everyone puts one stake per point in; only a player at 0 takes the pot, else it stays."""
    pot = carried_over + sum(totals)
    takers = [seat for seat, total in enumerate(totals) if total == 0]
    if not takers:
        return Pot(tuple(totals), tuple(Fraction(0) for _ in totals), pot)
    share = Fraction(pot, len(takers))
    return Pot(tuple(totals), tuple(share if total == 0 else Fraction(0) for total in totals), 0)


# --------------------------------------------------------------------------------------------
# The club-night file


def _names(
    raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]
) -> tuple[int, ...]:
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not names:
        problems.append(
            EngineError(
                place,
                f"expected a player name or a list of names, got {shown(raw)}",
                "players_shape",
                {"got": shown(raw)},
            )
        )
        return ()
    found = len(problems)
    for name in names:
        if name not in seats:
            problems.append(not_at_table(place, name))
    return tuple(sorted({seats.index(n) for n in names})) if len(problems) == found else ()


# What a deal may hold (dealkeys.py): each key, its type and its bounds.
MAX_SEATS = PLAYERS.stop - 1
OFFENDERS = Either((NAME, ListOf(NAME, MAX_SEATS)))
DEAL_KEYS = Fields(
    {
        "hearts": Keyed(Integer(0, HEARTS), MAX_SEATS),
        "queen_of_spades": NAME,
        "revoke": OFFENDERS,
        "mixed_tricks": OFFENDERS,
        "penalties": PENALTIES,
        "dealer": DEALER,
    }
)


def _read(
    point_table: PointTable,
    raw: Mapping[str, Any],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one hearts deal of the club-night file; append located problems, return it or None.

    ``{"hearts": {name: count}, "queen_of_spades": name, "revoke": name, "mixed_tricks": name,
    "penalties": [...]}`` — ``revoke`` and ``mixed_tricks`` are optional (a name or a list).
    """
    found = len(problems)
    offenders: set[int] = set()
    for key in ("revoke", "mixed_tricks"):
        if raw.get(key) is not None:
            offenders.update(_names(raw[key], seats, at(place, key), problems))
    stopped = bool(offenders)
    hearts = _parse_hearts(
        raw.get("hearts"), seats, at(place, "hearts"), problems, required=not stopped
    )
    queen = None
    raw_queen = raw.get("queen_of_spades")
    if raw_queen is None and not stopped:
        problems.append(
            EngineError(
                at(place, "queen_of_spades"),
                "expected the name of the player who took it",
                "queen_missing",
            )
        )
    elif raw_queen is not None and raw_queen not in seats:
        problems.append(not_at_table(at(place, "queen_of_spades"), raw_queen))
    elif raw_queen is not None:
        queen = seats.index(raw_queen)
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)
    if len(problems) != found:
        return None
    if stopped:
        return Deal(
            hearts=None,
            queen_of_spades=None,
            offenders=tuple(sorted(offenders)),
            penalties=penalties,
        )
    return Deal(hearts=hearts, queen_of_spades=queen, penalties=penalties)


parse_deal = deal_reader(GAME, DEAL_KEYS, _read)


def _parse_hearts(
    raw: Any, seats: Sequence[str], place: str, problems: list[EngineError], required: bool
) -> tuple[int, ...] | None:
    if raw is None and not required:
        return None
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"expected an object player name → hearts taken, got {shown(raw)}",
                "hearts_shape",
                {"got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    hearts = [0] * len(seats)
    for name, count in raw.items():
        if name not in seats:
            problems.append(not_at_table(place, name))
        elif not is_int(count) or not 0 <= count <= HEARTS:
            problems.append(
                EngineError(
                    at(place, name),
                    f"expected 0 … 13 hearts, got {shown(count)}",
                    "hearts_outside",
                    {"player": name, "got": shown(count)},
                )
            )
        else:
            hearts[seats.index(name)] = count
    if len(problems) != found:
        return None
    if required and sum(hearts) != HEARTS:
        problems.append(
            EngineError(
                place,
                f"hearts add up to {sum(hearts)}, expected 13",
                "hearts_total",
                {"got": sum(hearts), "expected": HEARTS},
            )
        )
        return None
    return tuple(hearts)
