"""The bésigue family: what a coup and a point table are (scoring-rules.md §4, seed 002).

The combinations, the point table and its reading, the coup as recorded and the checks a coup
must pass at its table; ``besigue`` scores coups, ``besigue_deals`` reads a coup of the
club-night file. Both are re-exported by ``besigue``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..base import Penalty
from ..errors import EngineError, at
from ..parsing import int_field, shown, table_error, table_header

GAME = "besigue"
PLAYERS = range(2, 5)
BRISQUES_PER_DECK = 8  # 4 aces and 4 tens in a 32-card deck

# Every combination code a table may price (§4). Codes stay in English snake_case; the UI
# shows the French names.
COMBINATIONS = (
    "marriage",
    "trump_marriage",
    "four_jacks",
    "four_queens",
    "four_kings",
    "four_aces",
    "four_trump_jacks",
    "four_trump_queens",
    "four_trump_kings",
    "four_trump_tens",
    "four_trump_aces",
    "five_trump_jacks",
    "five_trump_queens",
    "five_trump_kings",
    "five_trump_tens",
    "five_trump_aces",
    "besigue",
    "double_besigue",
    "triple_besigue",
    "quadruple_besigue",
    "quintuple_besigue",
    "quinte_majeure",
    "other_quinte",
    "seven_of_trump",
    "carte_blanche",
    "cut_guess",
    "cut_24",
)
# "score": brisques count in the coup score; "ignored": not counted (chinois); "tie_break": only
# to break a tie or to save a rubicon (rubicon).
BRISQUE_USES = ("score", "ignored", "tie_break")
PARTNERS = ((0, 2), (1, 3))  # à quatre in teams: partners sit opposite


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    players: int
    decks: int
    combinations: Mapping[str, int]
    brisque: int
    brisques: str
    last_trick: int
    end: TargetEnd | OneCoupEnd
    teams: bool = False
    game: str = GAME

    @property
    def deck_brisques(self) -> int:
        return BRISQUES_PER_DECK * self.decks


@dataclass(frozen=True, slots=True)
class Deal:
    """A coup as recorded; players are seat indexes (0 = seat 1).

    ``declarations`` — per seat, ``(code, count)`` pairs; ``brisques`` — per seat, or ``None``
    where the table ignores them and the scorer left them out.
    """

    declarations: tuple[tuple[tuple[str, int], ...], ...]
    brisques: tuple[int, ...] | None
    last_trick: int
    penalties: tuple[Penalty, ...] = ()


# --------------------------------------------------------------------------------------------
# Point tables


@dataclass(frozen=True, slots=True)
class TargetEnd:
    """Games of several coups, won by reaching ``target`` at the end of a coup."""

    target: int


@dataclass(frozen=True, slots=True)
class OneCoupEnd:
    """Games of one coup, with a bonus for the winner and a rubicon for a weak loser."""

    winner_bonus: int
    rubicon_below: int
    rubicon_bonus: int
    rubicon_extra: int
    drop_tens: bool


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a bésigue point table and return it frozen.

    Shape::

        {"format": "point-table/1", "game": "besigue", "name": "besigue", "label": "…",
         "players": 2,                 # 2, 3 or 4
         "decks": 2,                   # 32-card decks shuffled together
         "combinations": {"marriage": 20, "trump_marriage": 40, …},   # code → points
         "brisque": 10, "brisques": "score" | "ignored" | "tie_break",
         "last_trick": 10,
         "end": {"kind": "target", "target": 1500}
             or {"kind": "one_coup", "winner_bonus": 1000, "rubicon_below": 3000,
                 "rubicon_bonus": 1000, "rubicon_extra": 0, "drop_tens": true},
         "teams": false}               # true: 4 players, partners 1+3 vs 2+4 pool their points

    A combination the table leaves out cannot be declared under it.
    """
    name, label = table_header(data, place, GAME)
    players = int_field(data, "players", place, 2)
    if players not in PLAYERS:
        raise table_error(at(place, "players"), f"expected 2, 3 or 4, got {players}")
    brisques = data.get("brisques")
    if brisques not in BRISQUE_USES:
        wanted = " or ".join(f'"{u}"' for u in BRISQUE_USES)
        raise table_error(at(place, "brisques"), f"expected {wanted}, got {shown(brisques)}")
    teams = data.get("teams", False)
    if not isinstance(teams, bool):
        raise table_error(at(place, "teams"), f"expected true or false, got {shown(teams)}")
    if teams and players != 4:
        raise table_error(at(place, "teams"), f"teams need 4 players, the table has {players}")
    end = _load_end(data.get("end"), at(place, "end"))
    if isinstance(end, OneCoupEnd) and players != 2:
        raise table_error(at(place, "players"), f"a one-coup game is for 2 players, got {players}")
    return PointTable(
        name=name,
        label=label,
        players=players,
        decks=int_field(data, "decks", place, 1),
        combinations=_load_combinations(data.get("combinations"), at(place, "combinations")),
        brisque=int_field(data, "brisque", place, 0),
        brisques=brisques,
        last_trick=int_field(data, "last_trick", place, 0),
        end=end,
        teams=teams,
    )


def _load_combinations(raw: Any, place: str) -> Mapping[str, int]:
    if not isinstance(raw, Mapping) or not raw:
        raise table_error(place, f"expected an object combination code → points, got {shown(raw)}")
    for code in raw:
        if code not in COMBINATIONS:
            raise table_error(
                at(place, code),
                f"unknown combination {shown(code)}; known: {', '.join(COMBINATIONS)}",
            )
        int_field(raw, code, place, 0)
    return MappingProxyType(dict(raw))


def _load_end(raw: Any, place: str) -> TargetEnd | OneCoupEnd:
    if not isinstance(raw, Mapping):
        raise table_error(place, f'expected {{"kind": "target" | "one_coup", …}}, got {shown(raw)}')
    kind = raw.get("kind")
    if kind == "target":
        return TargetEnd(target=int_field(raw, "target", place, 1))
    if kind == "one_coup":
        drop_tens = raw.get("drop_tens")
        if not isinstance(drop_tens, bool):
            raise table_error(
                at(place, "drop_tens"), f"expected true or false, got {shown(drop_tens)}"
            )
        return OneCoupEnd(
            winner_bonus=int_field(raw, "winner_bonus", place, 0),
            rubicon_below=int_field(raw, "rubicon_below", place, 0),
            rubicon_bonus=int_field(raw, "rubicon_bonus", place, 0),
            rubicon_extra=int_field(raw, "rubicon_extra", place, 0),
            drop_tens=drop_tens,
        )
    raise table_error(at(place, "kind"), f'expected "target" or "one_coup", got {shown(kind)}')


def check_deal(point_table: PointTable, deal: Deal, seat_count: int) -> None:
    """The checks that need both the table and the number of players."""
    if len(deal.declarations) != seat_count or not 0 <= deal.last_trick < seat_count:
        raise EngineError(
            "",
            f"the coup does not fit a table of {seat_count} players",
            "coup_table_size",
            {"got": seat_count},
        )
    if deal.brisques is None:
        if point_table.brisques != "ignored":
            raise EngineError(
                "brisques",
                f'point table "{point_table.name}" counts brisques: give each player\'s',
                "brisques_missing",
                {"table": point_table.label},
            )
    elif sum(deal.brisques) != point_table.deck_brisques:
        raise EngineError(
            "brisques",
            f"brisques add up to {sum(deal.brisques)}, expected {point_table.deck_brisques} "
            f"({BRISQUES_PER_DECK} per deck × {point_table.decks} decks)",
            "brisques_total",
            {
                "got": sum(deal.brisques),
                "expected": point_table.deck_brisques,
                "decks": point_table.decks,
            },
        )
    totals: dict[str, int] = {}
    for declarations in deal.declarations:
        for code, count in declarations:
            totals[code] = totals.get(code, 0) + count
    limits = {"seven_of_trump": point_table.decks, "cut_guess": 1, "cut_24": 1}
    for code, limit in limits.items():
        if totals.get(code, 0) > limit:
            raise EngineError(
                "declarations",
                f"{code} declared {totals[code]} times in the coup, expected at most {limit}",
                "declared_too_often",
                {"combination": code, "got": totals[code], "maximum": limit},
            )
