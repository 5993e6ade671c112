"""Tables as downloads: CSV for any spreadsheet, and a real Excel workbook.

Both take the same header and rows, so a ranking or a night's standings is written once and
offered in both formats. Callers pass public names only: exports leave the club.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from scoring.engine.standings import hundredths, points_text

EXPORT_FORMATS = ("csv", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# A cell starting with one of these is a formula to Excel and LibreOffice; a member's display
# name is his own text and must never run as one ("=HYPERLINK(…)" in a public export).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def guard_removed(text: str) -> str:
    """A cell read back from one of these CSV files: the quote written before a formula's
    first character (``csv_text``) taken off, so that "+32 475 …" comes back as it was.
    What it holds is text again, which the next export guards again."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


class Text(str):
    """The site's own text in a table (the tie mark "="): written as it is, never guarded."""


def _cell(value: Any) -> Any:
    # Tournament points are exact fractions (a tie shares 5 + 3 as 4 each, or 3 + 1 + 0 as
    # 4/3): a spreadsheet gets the number, rounded for reading only where it has decimals, by
    # the rule every page rounds by (half away from zero, from the exact value).
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else hundredths(value) / 100
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV's text (with a BOM, so that Excel reads the accents) separated by semicolons, as
    spreadsheets in Belgium expect: the comma is the decimal separator there."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_text(value) for value in row])
    return buffer.getvalue()


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """The table as a UTF-8 CSV download (``csv_text``)."""
    response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def _csv_text(value: Any) -> Any:
    # Points as the pages write them (``points_text``), with the comma these files always
    # have; a figure with decimals (a cote) with two of them.
    if isinstance(value, Fraction):
        return points_text(value, ",")
    if isinstance(value, float):
        return points_text(Fraction(value), ",", places_always=True)
    # CSV has no types: a member's name that would run as a formula is written behind a quote.
    if isinstance(value, str) and not isinstance(value, Text) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return "" if value is None else value


def xlsx_response(
    filename: str, title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """An Excel workbook with one sheet: a bold header row, numbers as numbers."""
    workbook = Workbook()
    sheet = workbook.active
    # Excel refuses sheet titles over 31 characters or with []:*?/\ in them.
    sheet.title = "".join(c for c in title if c not in "[]:*?/\\")[:31] or "Export"
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_cell(value) for value in row])
        # A workbook's cells have types: text is a text cell, never a formula, and needs no
        # quote in front of it (Excel would show it).
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.xlsx"'
    return response


def table_response(
    fmt: str, filename: str, title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """The table in the asked format (``csv`` or ``xlsx``; the URL allows only those)."""
    if fmt == "xlsx":
        return xlsx_response(filename, title, header, rows)
    return csv_response(filename, header, rows)


# A column of an export: its heading, and what a line shows under it (an attribute's dotted
# path, "player.display_name", or a function of the line).
Column = tuple[str, str | Callable[[Any], Any]]


def columns_table(
    columns: Sequence[Column], lines: Iterable[Any]
) -> tuple[list[str], list[list[Any]]]:
    """The header and rows of a table of ``lines`` (a ranking's, a night's standings): each
    heading written beside what it shows, so the two cannot drift apart."""
    readers = [attrgetter(read) if isinstance(read, str) else read for _heading, read in columns]
    return [heading for heading, _read in columns], [
        [read(line) for read in readers] for line in lines
    ]


def ranking_columns(name_of: Callable[[Any], str]) -> list[Column]:
    """A ranking's columns as every export of it writes them (``name_of``: how the reader
    may see each player named)."""
    return [
        (_("Rang"), "rank"),
        (_("Joueur"), lambda line: name_of(line.player)),
        (_("Soirées jouées"), "tournaments_played"),
        (_("Soirées retenues"), "tournaments_counted"),
        (_("Soirées gagnées"), "tournaments_won"),
        (_("Points de tournoi"), "tournament_points"),
        (_("Points de jeu"), "game_points"),
    ]
