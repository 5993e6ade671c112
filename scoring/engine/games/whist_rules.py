"""Classic whist: what a deal and a point table are (scoring-rules.md §2, seed 000).

The partnerships, the point table and its reading, the deal as recorded; ``whist`` scores
them, ``whist_deals`` reads a deal of the club-night file. Both are re-exported by ``whist``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import Penalty
from ..errors import EngineError, at
from ..parsing import int_field, shown, table_error, table_header

GAME = "whist"
SEATS = 4
TRICKS = 13
BOOK = 6  # "le Devoir": the first six tricks of a team score nothing

Team = tuple[int, int]
# §2 partie générale: the partnerships of parties 1, 2, 3 (seat indexes, seat 1 = index 0).
ROTATION: tuple[tuple[Team, Team], ...] = (((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2)))
PARTIE_ENDS = ("won", "played")
PARTIE_VALUES = ("difference", "fiches")


@dataclass(frozen=True, slots=True)
class FicheStep:
    """Per manche won, each winner gets ``fiches`` when the losers have ``losers_from`` or more."""

    losers_from: int
    fiches: int


@dataclass(frozen=True, slots=True)
class PointTable:
    name: str
    label: str
    trick_value: int
    honours: tuple[int, int] | None  # points for 3 and for 4 trump honours; None: not counted
    target: int
    manches: int
    partie_ends: str
    partie_value: str
    fiches: tuple[FicheStep, ...] = ()
    partie_bonus: int = 0
    chante_at: int | None = None
    revoke_tricks: int = 2
    robres: int | None = None  # partie simple 2: robres a team must win to win the partie
    game: str = GAME


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as recorded; players are seat indexes (0 = seat 1).

    ``teams`` — the two partnerships, the one holding seat 1 first; every per-team pair below
    follows that order. ``tricks`` is ``None`` for a deal not played ("je chante").
    """

    teams: tuple[Team, Team]
    tricks: tuple[int, int] | None
    honours: tuple[int, int] = (0, 0)
    revokes: tuple[int, int] = (0, 0)
    not_played: bool = False
    penalties: tuple[Penalty, ...] = ()


# --------------------------------------------------------------------------------------------
# Point tables


def _choice(data: Mapping[str, Any], key: str, place: str, choices: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in choices:
        wanted = " or ".join(f'"{c}"' for c in choices)
        raise table_error(at(place, key), f"expected {wanted}, got {shown(value)}")
    return value


def load_table(data: Mapping[str, Any], place: str = "") -> PointTable:
    """Validate a classic whist point table and return it frozen.

    Shape::

        {"format": "point-table/1", "game": "whist", "name": "simple10", "label": "…",
         "trick_value": 2,                    # points per trick over six
         "honours": {"three": 2, "four": 4},  # or null where honours are not counted
         "target": 10,                        # points that end a manche
         "manches": 2, "partie_ends": "played" | "won",
         "partie_value": "difference" | "fiches",
         "fiches": {"per_manche": [{"losers_from": 0, "fiches": 3},
                                   {"losers_from": 1, "fiches": 2},
                                   {"losers_from": 5, "fiches": 1}],
                    "partie_bonus": 4},       # required when partie_value is "fiches"
         "chante_at": 8,                      # or null: no "je chante"
         "revoke_tricks": 2,
         "robres": 2}                         # optional, partie simple 2 (partie_ends "won")
    """
    name, label = table_header(data, place, GAME)
    target = int_field(data, "target", place, 1)
    honours = _load_honours(data.get("honours"), at(place, "honours"))
    partie_value = _choice(data, "partie_value", place, PARTIE_VALUES)
    fiches: tuple[FicheStep, ...] = ()
    partie_bonus = 0
    if partie_value == "fiches":
        fiches, partie_bonus = _load_fiches(data.get("fiches"), at(place, "fiches"))
    chante_at = data.get("chante_at")
    if chante_at is not None:
        chante_at = int_field(data, "chante_at", place, 0)
        if honours is None:
            raise table_error(
                at(place, "chante_at"), "je chante needs honours: set honours or null"
            )
        if not chante_at < target <= chante_at + honours[0]:
            raise table_error(
                at(place, "chante_at"),
                f"expected a score below the target {target} from which 3 honours "
                f"({honours[0]} points) reach it, got {chante_at}",
            )
    return PointTable(
        name=name,
        label=label,
        trick_value=int_field(data, "trick_value", place, 1),
        honours=honours,
        target=target,
        manches=int_field(data, "manches", place, 1),
        partie_ends=_choice(data, "partie_ends", place, PARTIE_ENDS),
        partie_value=partie_value,
        fiches=fiches,
        partie_bonus=partie_bonus,
        chante_at=chante_at,
        revoke_tricks=int_field(data, "revoke_tricks", place, 0),
        robres=_load_robres(data, place),
    )


def _load_robres(data: Mapping[str, Any], place: str) -> int | None:
    """``robres``: a partie is won by the first team to win this many robres, a robre by the
    first to win ``manches`` manches (partie simple 2). Absent or null: no robres."""
    if data.get("robres") is None:
        return None
    robres = int_field(data, "robres", place, 1)
    if data.get("partie_ends") != "won":
        raise table_error(
            at(place, "robres"), 'robres are won, not played: set "partie_ends" to "won"'
        )
    return robres


def _load_honours(raw: Any, place: str) -> tuple[int, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise table_error(
            place, f'expected {{"three": points, "four": points}} or null, got {shown(raw)}'
        )
    return int_field(raw, "three", place, 0), int_field(raw, "four", place, 0)


def _load_fiches(raw: Any, place: str) -> tuple[tuple[FicheStep, ...], int]:
    if not isinstance(raw, Mapping):
        raise table_error(
            place, f'expected {{"per_manche": [...], "partie_bonus": n}}, got {shown(raw)}'
        )
    steps = raw.get("per_manche")
    if not isinstance(steps, list) or not steps:
        raise table_error(
            at(place, "per_manche"), f"expected a non-empty list of steps, got {shown(steps)}"
        )
    loaded: list[FicheStep] = []
    for index, step in enumerate(steps):
        step_place = at(at(place, "per_manche"), index)
        if not isinstance(step, Mapping):
            raise table_error(
                step_place, f'expected {{"losers_from": n, "fiches": n}}, got {shown(step)}'
            )
        losers_from = int_field(step, "losers_from", step_place, 0)
        if loaded and losers_from <= loaded[-1].losers_from:
            raise table_error(
                at(step_place, "losers_from"),
                f"expected more than {loaded[-1].losers_from} (steps go up), got {losers_from}",
            )
        if not loaded and losers_from != 0:
            raise table_error(
                at(step_place, "losers_from"), f"the first step starts at 0, got {losers_from}"
            )
        loaded.append(FicheStep(losers_from, int_field(step, "fiches", step_place, 0)))
    return tuple(loaded), int_field(raw, "partie_bonus", place, 0)


# --------------------------------------------------------------------------------------------
# Said alike by the scoring and the reading of deals


def team_seats(team: Team) -> str:
    return f"{team[0] + 1} + {team[1] + 1}"


def team_numbers(team: Team) -> list[int]:
    """A team's seat numbers (from 1), for an error's parameters."""
    return [team[0] + 1, team[1] + 1]


def table_size_error(place: str, seat_count: int) -> EngineError:
    return EngineError(
        place,
        f"whist is played by 4 players, not {seat_count}",
        "table_size",
        {"minimum": SEATS, "maximum": SEATS, "got": seat_count},
    )


def no_chante_error(place: str, point_table: PointTable) -> EngineError:
    return EngineError(
        place,
        f'point table "{point_table.name}" has no "je chante"',
        "chante_not_in_table",
        {"table": point_table.label},
    )
