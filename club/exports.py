"""Tables as downloads: two CSVs and a real Excel workbook.

All take the same header and rows, so a ranking or a night's standings is written once and
offered in every format. The two CSVs are for two readers: « CSV (tableur) » for a spreadsheet
in Belgium (semicolons, decimal commas, a BOM so that Excel reads the accents, dates as
31/12/2025) and the plain CSV for programs (commas, decimal points, UTF-8 without a BOM, ISO
dates: what ``pandas.read_csv`` reads with its defaults). Callers pass public names only:
exports leave the club.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from operator import attrgetter
from typing import Any, NamedTuple

from django.http import HttpResponse
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from scoring.engine.standings import hundredths, points_text

# The format in an export's address: the plain CSV, the spreadsheet's CSV, the workbook.
EXPORT_FORMATS = ("csv", "csv-tableur", "xlsx")
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


class SignForReaders(Text):
    """A sign a person reads where a number would be (the mort's « – » in a points column):
    written in the spreadsheets, an empty cell in the plain CSV, whose column a program must
    read as numbers."""


def _cell(value: Any) -> Any:
    # Tournament points are exact fractions (a tie shares 5 + 3 as 4 each, or 3 + 1 + 0 as
    # 4/3): a spreadsheet gets the number, rounded for reading only where it has decimals, by
    # the rule every page rounds by (half away from zero, from the exact value).
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else hundredths(value) / 100
    return value


class CsvStyle(NamedTuple):
    """How a CSV writes what a spreadsheet and a program read differently."""

    delimiter: str
    point: str  # the decimal separator
    start: str  # written before the header: a BOM, or nothing
    date_format: str
    filename_suffix: str
    signs_written: bool  # a ``SignForReaders`` written, or its cell left empty


# Spreadsheets in Belgium: the comma is the decimal separator there, so fields are separated
# by semicolons; Excel reads UTF-8 only behind a BOM.
SPREADSHEET_CSV = CsvStyle(";", ",", "\ufeff", "%d/%m/%Y", "-tableur", signs_written=True)
# RFC 4180 as programs read it: ``pandas.read_csv(path)`` with no argument reads it right
# (numbers as numbers, the header's accents, no BOM glued to the first heading).
PLAIN_CSV = CsvStyle(",", ".", "", "%Y-%m-%d", "", signs_written=False)


def csv_text(
    header: Sequence[str], rows: Iterable[Sequence[Any]], style: CsvStyle = SPREADSHEET_CSV
) -> str:
    """A CSV's text in ``style``: the spreadsheet's (a club's archive, « CSV (tableur) ») unless
    told otherwise."""
    buffer = io.StringIO()
    buffer.write(style.start)
    writer = csv.writer(buffer, delimiter=style.delimiter, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_text(value, style) for value in row])
    return buffer.getvalue()


def csv_response(
    filename: str,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    style: CsvStyle = SPREADSHEET_CSV,
) -> HttpResponse:
    """The table as a UTF-8 CSV download (``csv_text``); the spreadsheet's file is named
    ``<filename>-tableur.csv`` so that the two never overwrite each other in a download
    folder."""
    body = csv_text(header, rows, style)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{filename}{style.filename_suffix}.csv"'
    )
    return response


def _csv_text(value: Any, style: CsvStyle) -> Any:
    # Points as the pages write them (``points_text``), with the style's decimal separator;
    # a figure with decimals (a cote) with two of them.
    if isinstance(value, Fraction):
        return points_text(value, style.point)
    if isinstance(value, float):
        return points_text(Fraction(value), style.point, places_always=True)
    if isinstance(value, datetime.date):
        return value.strftime(style.date_format)
    if isinstance(value, SignForReaders) and not style.signs_written:
        return ""
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
            elif isinstance(cell.value, datetime.date):
                cell.number_format = "DD/MM/YYYY"  # a date cell, shown as Belgium writes it
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.xlsx"'
    return response


def table_response(
    fmt: str, filename: str, title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """The table in the asked format (one of ``EXPORT_FORMATS``; the views allow only those):
    ``csv`` the plain CSV, ``csv-tableur`` the spreadsheet's, ``xlsx`` the workbook."""
    if fmt == "xlsx":
        return xlsx_response(filename, title, header, rows)
    style = SPREADSHEET_CSV if fmt == "csv-tableur" else PLAIN_CSV
    return csv_response(filename, header, rows, style)


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
