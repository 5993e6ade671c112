"""What every game hands back for a poule, whatever its rules."""

from __future__ import annotations

from collections.abc import Sequence
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
    ``counted`` — per deal, whether it counts toward that number.
    """

    deal_points: tuple[tuple[int, ...], ...]
    dealers: tuple[int | None, ...]
    game_points: tuple[int, ...]
    net: tuple[Fraction, ...]
    lower_is_better: bool = False
    counted_deals: int = 0
    warnings: tuple[str, ...] = ()
    counted: tuple[bool, ...] = ()


def next_dealer(
    dealers: Sequence[int | None], counted: Sequence[bool], seat_count: int
) -> int | None:
    """The seat index that deals next, from the deals so far (their dealers and whether they
    counted): one seat clockwise after a counted deal, the same dealer again after a deal that
    did not count (everybody passed). ``None`` once a deal has no dealer: the game's sheet does
    not follow one."""
    if not dealers:
        return 0
    last = dealers[-1]
    if last is None:
        return None
    return (last + 1) % seat_count if counted[-1] else last


def add_penalties(
    points: list[int], penalties: tuple[Penalty, ...], active: tuple[int, ...]
) -> None:
    """Apply penalties in place: the offender pays ``p`` to each other active player."""
    for penalty in penalties:
        others = len(active) - 1
        for seat in active:
            points[seat] += -penalty.points * others if seat == penalty.seat else penalty.points
