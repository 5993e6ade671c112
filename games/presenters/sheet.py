"""The sheet model: a poule's deals as every page shows them.

One numbering (``games.numbering``'s: a pass, or a classic whist deal not played, takes no
number), one set of words per deal (its short code, its line in words, the cells it marks), the
dealer and the mort of each deal, the running totals and the poule's progress. The phone's
sheet, the results page and the history of corrections and removals read it; nothing else
describes a deal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.translation import get_language

from club.names import NameReader, name_shown
from scoring.engine.base import next_dealer
from scoring.engine.games import game_module, mort
from scoring.models import PouleStanding

from ..dealforms import describe_deal, short_deal, whist_progress
from ..models import Deal, DealChange, Poule, Tournament
from ..numbering import deal_numbers, next_number, removed_numbers, sheet_numbers


def short_names(names: Sequence[str]) -> list[tuple[str, str]]:
    """Column headers and the form's buttons on a phone, per seat: the whole first name; where
    two players at the table share one, it is followed by as much of the last name as tells
    them apart ("Anne D.", "Anne J."; "Anne Du." and "Anne Dy." when even that is shared); and
    the initials for the narrowest columns (CSS picks)."""
    firsts = [name.split()[0] if name.split() else name for name in names]
    lasts = [name.split()[-1] if len(name.split()) > 1 else "" for name in names]
    shorts = []
    for index, (name, first) in enumerate(zip(names, firsts, strict=True)):
        words = name.split()
        short = first
        namesakes = [lasts[i] for i, other in enumerate(firsts) if other == first and i != index]
        if namesakes and lasts[index]:
            size = 1
            while size < len(lasts[index]) and any(
                last[:size] == lasts[index][:size] for last in namesakes
            ):
                size += 1
            short = f"{first} {lasts[index][:size]}."
        shorts.append((short, "".join(word[0] for word in words[:3]).upper() or name[:2]))
    return shorts


# A deal's words on the grid (its code, its line, the cells it marks), per deal as last written,
# names and language: the sheet is sent back after every deal of the night, and its earlier
# deals have not changed. Each entry keeps the point table it was worked out with: the key
# names it by ``id``, which a table no longer held could otherwise pass on to another.
_DEAL_WORDS: dict[tuple[Any, ...], tuple[Any, tuple[str, str, dict[str, str]]]] = {}


def deal_words(
    game: str,
    deal: Deal,
    point_table: Any,
    names: dict[str, str],
    *,
    reading: tuple[Any, ...] | None = None,
) -> tuple[str, str, dict[str, str]]:
    """The deal's short code ("E8 ✓9"), its line in words and the seats its cells mark.
    ``reading``: ``words_reading(point_table, names)``, given by a caller describing a whole
    poule's deals (worked out once, not once a deal)."""
    key = (deal.pk, deal.recorded_at, reading or words_reading(point_table, names))
    found = _DEAL_WORDS.get(key) if deal.pk else None
    if found is not None and found[0] is point_table:
        return found[1]
    code, marks = short_deal(game, deal.data, point_table)
    words = (code, describe_deal(game, deal.data, names), marks)
    if deal.pk:
        if len(_DEAL_WORDS) >= 4096:
            _DEAL_WORDS.clear()
        _DEAL_WORDS[key] = (point_table, words)
    return words


def words_reading(point_table: Any, names: dict[str, str]) -> tuple[Any, ...]:
    """What a deal's words depend on besides the deal: the point table, the names, the
    language."""
    return (id(point_table), tuple(names.items()), get_language())


def scorer_shown(change: DealChange, reader: NameReader | None) -> str:
    """Who changed a deal, named as ``reader`` may see him (``club.names``): his player's
    name, never his login (an e-mail address); "—" for an account without a player (the
    site's staff) or one deleted since."""
    player = getattr(change.by, "player", None) if change.by_id else None
    return name_shown(player, reader) if player is not None else "—"


def change_lines(
    changes: Sequence[DealChange],
    game: str,
    names: dict[str, str],
    reader: NameReader | None = None,
) -> list[dict[str, Any]]:
    """A deal's corrections (or the poule's removals), each before and after in words, and
    who made it as ``reader`` may see him."""
    return [
        {
            "change": change,
            "by": scorer_shown(change, reader),
            "before": describe_deal(game, change.before, names),
            "after": describe_deal(game, change.after, names) if change.after else "",
        }
        for change in changes
    ]


def poule_status(
    tournament: Tournament, poule: Poule, seat_count: int, deals: Sequence[Deal], names: dict
) -> dict[str, Any]:
    """What the sheet's header says of the poule's progress, per game: the deal count (Belgian
    whist), the partie and its manches (classic whist), the coups and the game's target
    (bésigue), the deals and the partie's length (hearts)."""
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    status: dict[str, Any] = {"game": game}
    if game_module(game).FIXED_DEALS_PER_POULE:
        status["expected"] = poule.deals_tonight(seat_count)
        status["extra"] = poule.extra_deals
        status["complete"] = poule.counted_deals >= status["expected"]
    elif game == "whist":
        status["progress"] = whist_progress(point_table, deals, names)
        status["target"] = point_table.target
        status["manches"] = point_table.manches
    elif game == "besigue":
        status["target"] = getattr(point_table.end, "target", None)
    elif game == "hearts":
        status["partie_deals"] = point_table.partie_deals
    return status


def uncounted_contracts(game: str) -> list[str]:
    """The contracts after which the same dealer deals again (everybody passed): the engine's
    own rule, read from the game's module."""
    module = game_module(game)
    counts = getattr(module, "counts_toward_poule", None)
    passed = getattr(module, "PASS", None)
    return [passed] if counts is not None and passed and not counts(passed) else []


def deal_cells(
    game: str,
    seat_count: int,
    dealer_seat: int | None,
    points: Sequence[int],
    marks: Mapping[str, str] | None = None,
) -> list[tuple[str, int | str]]:
    """A deal's cells, one per seat: its classes ("pts", the declarers' mark, "dealer",
    "mort") and what it shows: the points, "–" for the mort, who sits the deal out. Seats are
    numbered from 1; the engine counts them from 0. Made here, not by a template: the grid is
    sent back after every deal, and a template's conditions per cell are its slowest part."""
    dealer = None if dealer_seat is None else dealer_seat - 1
    return _marked_cells(dealer, mort(game, seat_count, dealer), points, marks)


def _marked_cells(
    dealer: int | None,
    sits_out: int | None,
    points: Sequence[int],
    marks: Mapping[str, str] | None,
) -> list[tuple[str, int | str]]:
    """``deal_cells`` once the dealer's and the mort's seat indexes are known."""
    cells: list[tuple[str, int | str]] = []
    for index, value in enumerate(points):
        classes = "pts"
        if marks and (mark := marks.get(str(index + 1))):
            classes += f" {mark}"
        if dealer == index:
            classes += " dealer"
        if sits_out == index:
            cells.append((f"{classes} mort", "–"))
        else:
            cells.append((classes, value))
    return cells


@dataclass
class SeatColumn:
    """A seat's column on the sheet: the name its reader sees (``club.names``), its short forms."""

    number: int
    name: str
    short: str
    initials: str
    player: Any


@dataclass
class Sheet:
    """A poule's sheet as plain data, for the phone's sheet and its history."""

    seats: list[SeatColumn]
    names: dict[str, str]
    rows: list[dict[str, Any]]
    totals: list[int]
    removed: list[dict[str, Any]]
    status: dict[str, Any]
    numbers: list[int | None]
    next_number: int
    dealer_seat: int | None
    mort_seat: int | None
    standings: list[PouleStanding]

    @property
    def next_dealer(self) -> str | None:
        return None if self.dealer_seat is None else self.names.get(str(self.dealer_seat))


def poule_sheet(
    tournament: Tournament, poule: Poule, seats: Sequence[Any], *, reader: NameReader
) -> Sheet:
    """The poule's sheet: its columns, each deal's row (number, code, words, cells with the
    dealer and the mort marked, the dealer's name, its corrections), the totals, the removed
    deals, the header's status and who deals next. ``reader``: who reads, to name each player
    (``club.names``)."""
    columns = _columns(seats, reader)
    names = {str(column.number): column.name for column in columns}
    # Just recorded: the service hands back what it stored; else read from the database.
    deals = getattr(poule, "sheet_deals", None)
    if deals is None:
        deals = list(poule.deals.order_by("position"))
    # The poule's whole history in one query (none at all for a poule never corrected):
    # corrections go with their deal, removals below.
    changes = (
        list(poule.changes.select_related("by__player").order_by("at", "pk"))
        if poule.corrections
        else []
    )
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    seat_count = len(columns)
    numbers = deal_numbers(game, deals)
    rows, totals = _rows(game, deals, numbers, changes, point_table, names, seat_count, reader)
    removals = [change for change in changes if change.action == DealChange.Action.DELETED]
    removed = change_lines(removals, game, names, reader)
    numbers_removed = removed_numbers(game, deals, removals)
    for line in removed:
        line["number"] = numbers_removed[line["change"].pk]
    # The header's teams by the columns' short names: it stays on two lines on a phone.
    shorts = {str(column.number): column.short for column in columns}
    dealer = (
        next_dealer(
            # Seats are numbered from 1 on the sheet, indexed from 0 by the engine.
            [None if d.dealer is None else d.dealer - 1 for d in deals],
            [d.counted for d in deals],
            seat_count,
        )
        if game_module(game).RECORDS_DEALER
        else None
    )
    next_mort = None if dealer is None else mort(game, seat_count, dealer)
    return Sheet(
        seats=columns,
        names=names,
        rows=rows,
        totals=totals,
        removed=removed,
        status=poule_status(tournament, poule, seat_count, deals, shorts),
        numbers=numbers,
        next_number=next_number(numbers),
        dealer_seat=None if dealer is None else dealer + 1,
        mort_seat=None if next_mort is None else next_mort + 1,
        standings=_standings(poule, deals),
    )


def _columns(seats: Sequence[Any], reader: NameReader) -> list[SeatColumn]:
    names = [name_shown(seat.player, reader) for seat in seats]
    return [
        SeatColumn(seat.number, name, short, initials, seat.player)
        for seat, name, (short, initials) in zip(seats, names, short_names(names), strict=True)
    ]


def _rows(
    game: str,
    deals: Sequence[Deal],
    numbers: Sequence[int | None],
    changes: Sequence[DealChange],
    point_table: Any,
    names: dict[str, str],
    seat_count: int,
    reader: NameReader | None = None,
) -> tuple[list[dict[str, Any]], list[int]]:
    totals = [0] * seat_count
    rows = []
    for deal, number in zip(deals, numbers, strict=True):
        totals = [total + points for total, points in zip(totals, deal.points, strict=False)]
        code, text, marks = deal_words(game, deal, point_table, names)
        cells = deal_cells(game, seat_count, deal.dealer, deal.points, marks)
        history = [change for change in changes if change.deal_id == deal.pk]
        rows.append(
            {
                "deal": deal,
                "ordinal": number,
                "code": code,
                "text": text,
                "cells": cells,
                "dealer": names.get(str(deal.dealer), ""),
                "history": change_lines(history, game, names, reader),
            }
        )
    return rows, totals


def _standings(poule: Poule, deals: Sequence[Deal]) -> list[PouleStanding]:
    standings = getattr(poule, "sheet_standings", None)
    if standings is not None:
        return standings
    if not deals:
        return []
    return list(
        PouleStanding.objects.filter(poule=poule).select_related("player").order_by("rank", "seat")
    )


class StoredDeal(NamedTuple):
    """A deal as stored, for readers that fetch plain rows (a night has hundreds of deals): what
    the sheet model needs of it."""

    pk: int | None
    recorded_at: Any
    data: Mapping[str, Any]
    counted: bool
    dealer: int | None
    points: Sequence[int]


@dataclass(frozen=True)
class DealLine:
    """One deal as every page, export and API answer tells it: its number on the sheet (None
    for a pass), its short code and its line in words, its dealer and its mort (seat numbers,
    from 1), and its cells (the dealer's "•" and the mort's "–" marked)."""

    number: int | None
    code: str
    text: str
    dealer: int | None
    mort: int | None
    cells: list[tuple[str, int | str]]


class _Played(Mapping[str, Any]):
    """What a deal's ``data`` holds, read from it only when asked: the numbering looks into it
    for one game only, and a night's deals fetched as text decode it when first read."""

    __slots__ = ("deal",)

    def __init__(self, deal: Any) -> None:
        self.deal = deal

    def __getitem__(self, key: str) -> Any:
        return self.deal.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.deal.data)

    def __len__(self) -> int:
        return len(self.deal.data)


def deal_lines(
    game: str, point_table: Any, seat_count: int, deals: Sequence[Any], names: dict[str, str]
) -> list[DealLine]:
    """A poule's deals (stored deals or ``StoredDeal`` rows, in playing order) as the sheet
    numbers and describes them: the same numbers, codes, words and cells as the phone's
    sheet, for the results page, the exports and the API."""
    numbers = sheet_numbers(game, ((deal.counted, _Played(deal)) for deal in deals))
    reading = words_reading(point_table, names)
    morts: dict[int | None, int | None] = {}  # each dealer's mort, asked of the engine once
    lines = []
    for deal, number in zip(deals, numbers, strict=True):
        code, text, marks = deal_words(game, deal, point_table, names, reading=reading)
        dealer = None if deal.dealer is None else deal.dealer - 1
        if dealer in morts:
            sits_out = morts[dealer]
        else:
            sits_out = morts[dealer] = mort(game, seat_count, dealer)
        lines.append(
            DealLine(
                number=number,
                code=code,
                text=text,
                dealer=deal.dealer,
                mort=None if sits_out is None else sits_out + 1,
                cells=_marked_cells(dealer, sits_out, deal.points, marks),
            )
        )
    return lines
