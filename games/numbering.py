"""How the deals of a poule are numbered on the score sheet, and so on every page, export and
message that names a deal: a deal that counts takes the next number; a pass (everybody
passed) or a classic whist deal not played ("je chante") takes none. A rule of the sheet,
read by the sheet model (games/presenters/sheet.py) and by the services' refusals."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.engine.games import game_module

from .models import Deal, DealChange


def is_numbered(game: str, counted: bool, data: Mapping[str, Any]) -> bool:
    """A deal that counts takes the next number on the sheet; a pass (everybody passed) or a
    classic whist deal not played ("je chante") does not, so "Donne 13" never shows at 11/15."""
    return counted and not (game == "whist" and data.get("not_played"))


def sheet_numbers(game: str, deals: Iterable[tuple[bool, Mapping[str, Any]]]) -> list[int | None]:
    """Each deal's number on the sheet, in playing order, from ``(counted, data)`` pairs; None
    for a deal that takes none."""
    numbers: list[int | None] = []
    ordinal = 0
    for counted, data in deals:
        numbered = is_numbered(game, counted, data)
        ordinal += numbered
        numbers.append(ordinal if numbered else None)
    return numbers


def deal_numbers(game: str, deals: Sequence[Deal]) -> list[int | None]:
    """``sheet_numbers`` of stored deals (in playing order)."""
    return sheet_numbers(game, ((deal.counted, deal.data) for deal in deals))


def next_number(numbers: Sequence[int | None]) -> int:
    """The number the next numbered deal will take."""
    return sum(1 for number in numbers if number is not None) + 1


def removed_numbers(
    game: str, deals: Sequence[Deal], removals: Sequence[DealChange]
) -> dict[int, int | None]:
    """The number each removed deal had on the sheet when it was removed (None for a pass):
    the sheet is rebuilt backwards, each removal put back where it stood, latest first, since
    the deals after a removed one moved up and deals recorded since came at the end."""
    counts = getattr(game_module(game), "counts_toward_poule", None)
    played: list[tuple[bool, Mapping[str, Any]]] = [(deal.counted, deal.data) for deal in deals]
    numbers: dict[int, int | None] = {}
    for change in sorted(removals, key=lambda change: (change.at, change.pk), reverse=True):
        before = change.before or {}
        contract = before.get("contract")
        counted = counts is None or contract is None or counts(contract)
        place = min(change.position - 1, len(played))
        played.insert(place, (counted, before))
        numbers[change.pk] = sheet_numbers(game, played[: place + 1])[-1]
    return numbers
