"""What every game hands back for a poule, whatever its rules."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Penalty:
    """``seat`` pays ``points`` to each other active player of the table (scoring-rules.md §1.6)."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class PouleScore:
    """A poule scored by its game's rules. Sequences are indexed by seat (0 = seat 1).

    ``deal_points`` — per deal, the points of every seat (the mort and a passed deal: 0).
    ``dealers`` — per deal, the dealer's seat index, or ``None`` where the game has no dealer.
    ``game_points`` — per seat, the points the poule standings rank by.
    ``net`` — per seat, the value whose sign decides the "positive" places of tournament points
    (the game points themselves, except hearts: table average − own total).
    ``lower_is_better`` — hearts ranks totals ascending; every other game descending.
    ``counted_deals`` — deals that count toward the poule's number (a passed deal does not).
    """

    deal_points: tuple[tuple[int, ...], ...]
    dealers: tuple[int | None, ...]
    game_points: tuple[int, ...]
    net: tuple[Fraction, ...]
    lower_is_better: bool = False
    counted_deals: int = 0
    warnings: tuple[str, ...] = ()


def add_penalties(
    points: list[int], penalties: tuple[Penalty, ...], active: tuple[int, ...]
) -> None:
    """Apply penalties in place: the offender pays ``p`` to each other active player."""
    for penalty in penalties:
        others = len(active) - 1
        for seat in active:
            points[seat] += -penalty.points * others if seat == penalty.seat else penalty.points
