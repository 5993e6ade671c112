"""The paper score sheet of a table: what a club prints when phones fail or members score on
paper, and types in afterwards (games/views/paper_entry.py reads the same columns).

Each deal's row says who deals and who sits it out (the mort, at a table of 5), by the engine's
rotation: seat 1 deals first, one seat clockwise per numbered deal. A pass takes no number on
the site's sheet, and the same dealer deals again: so the printed row of deal N is dealt by the
same player whatever passes came before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import segno
from django.utils.safestring import SafeString, mark_safe

from club.names import NameReader, name_shown
from scoring.engine.base import next_dealer
from scoring.engine.games import game_module, mort

from ..models import Deal, Poule, Tournament
from ..numbering import deal_numbers, next_number
from .legend import code_legend, played_contracts

# Rows printed for a game that plays to a score, not to a number of deals.
ROWS_TO_A_SCORE = 16


@dataclass
class PaperSeat:
    number: int
    name: str  # empty: a blank sheet, to be filled in by hand


@dataclass
class PaperRow:
    number: int | None  # None: a pass, which takes no number
    dealer: int
    mort: int | None


@dataclass
class PaperSheet:
    """One table's sheet: its players, its rows, and the QR code of its phone sheet."""

    table: int | None
    seats: list[PaperSeat]
    rows: list[PaperRow]
    qr: SafeString | None
    url: str


def qr_svg(url: str) -> SafeString:
    """The address as a QR code, an SVG element to put in the page as it is: no image to load
    (the site's CSP allows none from elsewhere) and sharp on any printer."""
    code = segno.make_qr(url, error="m")  # never a Micro QR: few phones read them
    svg = code.svg_inline(scale=1, border=2, svgclass="qr", lineclass=None, omitsize=True)
    return mark_safe(svg)  # segno's own SVG: the address is encoded as modules, not as text


def dealer_rows(game: str, seat_count: int, deals: int) -> list[PaperRow]:
    """Each numbered deal's dealer and mort (seats from 1), by the engine's rotation."""
    rows, dealers = [], []
    for number in range(1, deals + 1):
        dealer = next_dealer(dealers, [True] * len(dealers), seat_count)
        dealer = 0 if dealer is None else dealer
        dealers.append(dealer)
        out = mort(game, seat_count, dealer)
        rows.append(PaperRow(number, dealer + 1, None if out is None else out + 1))
    return rows


def typed_rows(
    game: str, seat_count: int, deals: Sequence[Deal], passes: Sequence[bool]
) -> list[PaperRow]:
    """The rows of a paper sheet typed in after the poule's stored ``deals`` (in playing
    order), one per entry of ``passes`` (True: that row is a pass), each with its number,
    dealer and mort as the site will record them: the engine's rotation (``next_dealer``), so a
    pass takes no number and its dealer deals again, as on the phone's sheet."""
    dealer = next_dealer(
        [None if deal.dealer is None else deal.dealer - 1 for deal in deals],
        [deal.counted for deal in deals],
        seat_count,
    )
    dealer = 0 if dealer is None else dealer
    number = next_number(deal_numbers(game, deals))
    rows = []
    for passed in passes:
        out = mort(game, seat_count, dealer)
        rows.append(
            PaperRow(None if passed else number, dealer + 1, None if out is None else out + 1)
        )
        number += 0 if passed else 1
        dealer = next_dealer([dealer], [not passed], seat_count) or 0
    return rows


def deal_count(tournament: Tournament, poule: Poule | None, seat_count: int) -> int:
    if not game_module(tournament.game).FIXED_DEALS_PER_POULE:
        return ROWS_TO_A_SCORE
    if poule is not None:
        return poule.deals_tonight(seat_count)
    return tournament.deals_per_poule(seat_count)


def round_sheets(
    tournament: Tournament,
    poules: Sequence[Poule],
    url_of: Any,
    *,
    reader: NameReader,
) -> list[PaperSheet]:
    """The sheets of a drawn round, a table each; ``url_of(poule)``: its phone sheet's address
    (absolute: a phone reads it from the paper). ``poules`` with their seated players."""
    sheets = []
    for poule in poules:
        seats = list(poule.seats.all())
        names = [
            PaperSeat(
                seat.number,
                name_shown(seat.player, reader),
            )
            for seat in seats
        ]
        url = url_of(poule)
        sheets.append(
            PaperSheet(
                table=poule.table,
                seats=names,
                rows=dealer_rows(
                    tournament.game, len(seats), deal_count(tournament, poule, len(seats))
                ),
                qr=qr_svg(url),
                url=url,
            )
        )
    return sheets


def blank_sheets(
    tournament: Tournament, tables: int, seat_count: int, night_url: str
) -> list[PaperSheet]:
    """Sheets with the names to fill in, for a club that scores on paper; their QR code opens
    the night's page (the tables are not drawn on the site)."""
    qr = qr_svg(night_url)
    rows = dealer_rows(tournament.game, seat_count, deal_count(tournament, None, seat_count))
    return [
        PaperSheet(
            table=None,
            seats=[PaperSeat(number, "") for number in range(1, seat_count + 1)],
            rows=rows,
            qr=qr,
            url=night_url,
        )
        for _ in range(tables)
    ]


def legend_of(game: str, point_table: Any = None) -> list[tuple[str, str]]:
    """The codes' legend printed under each sheet (the phone sheet's own): the contracts of
    the night's ``point_table`` alone."""
    return code_legend(game, played_contracts(point_table))
