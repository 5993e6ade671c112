"""A published ranking's table read from what the club admin has: a CSV file, an Excel
workbook, or the table copied from a web page (its cells come tab-separated, or as the page's
HTML). The result is the table's rows of text, as they were written; what each column is, the
club admin says next (``scoring.services.ranking_import``)."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl import load_workbook

# Enough for any club's ranking; a bigger file is something else.
MAX_ROWS = 2000
MAX_COLUMNS = 40
MAX_BYTES = 2_000_000

# What a header says, for proposing each column (French, English, Dutch).
HEADER_WORDS = {
    "rank": ("rang", "rank", "pos", "position", "place", "plaats", "#", "n°", "no", "classement"),
    "name": ("nom", "joueur", "name", "player", "naam", "speler", "membre"),
    "points": ("points", "pts", "point", "punten", "total", "totaal", "score"),
    "nights": ("soirées", "soirees", "nights", "tournois", "présences", "joué", "avonden"),
}


def _cells(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _tidy(rows: list[list[str]]) -> list[list[str]]:
    rows = [[_cells(cell) for cell in row[:MAX_COLUMNS]] for row in rows]
    while rows and not any(rows[-1]):
        rows.pop()
    if len(rows) > MAX_ROWS:
        raise ValidationError(
            _("Ce tableau a plus de %(count)s lignes : est-ce bien un classement ?")
            % {"count": MAX_ROWS}
        )
    if not rows:
        raise ValidationError(_("Ce tableau est vide."))
    return rows


def _text_of(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValidationError(_("Ce fichier n'est pas du texte lisible."))


def table_from_csv(data: bytes) -> list[list[str]]:
    """A CSV file, separated by commas, semicolons (Excel in French) or tabs."""
    text = _text_of(data)
    first = text.split("\n", 1)[0]
    delimiter = max((";", ",", "\t"), key=first.count)
    return _tidy(list(csv.reader(io.StringIO(text), delimiter=delimiter)))


def table_from_xlsx(data: bytes) -> list[list[str]]:
    """The first sheet of an Excel workbook, as its cells show."""
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl refuses a damaged file with many kinds of error
        raise ValidationError(_("Ce fichier Excel ne s'ouvre pas.")) from None
    sheet = workbook.worksheets[0]
    rows = [list(row) for row in sheet.iter_rows(max_row=MAX_ROWS + 1, values_only=True)]
    workbook.close()
    return _tidy(rows)


class _TableParser(HTMLParser):
    """The cells of an HTML table's rows (the first table of the text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            if not self.rows:
                self.rows.append([])
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def table_from_paste(text: str) -> list[list[str]]:
    """A table copied from a web page: its HTML, its cells separated by tabs (what a browser
    copies), or by two spaces or more (a table typed or printed as text)."""
    if re.search(r"<t[dh][\s>]", text, re.I):
        parser = _TableParser()
        parser.feed(text)
        return _tidy(parser.rows)
    lines = text.splitlines()
    if any("\t" in line for line in lines):
        return _tidy([line.split("\t") for line in lines])
    if any(";" in line for line in lines):
        return _tidy([line.split(";") for line in lines])
    return _tidy([re.split(r"\s{2,}", line.strip()) for line in lines])


def table_read(name: str, data: bytes) -> list[list[str]]:
    """An uploaded file's table, by its kind (its name's ending, else its first bytes)."""
    if len(data) > MAX_BYTES:
        raise ValidationError(_("Ce fichier est trop gros pour un classement (2 Mo au plus)."))
    if name.lower().endswith((".xlsx", ".xlsm")) or data[:2] == b"PK":
        return table_from_xlsx(data)
    text = _text_of(data)
    if re.search(r"<t[dh][\s>]", text, re.I):
        return table_from_paste(text)
    return table_from_csv(data)


def header_guess(rows: list[list[str]]) -> tuple[bool, dict[str, int | None]]:
    """Whether the first row is a header (no cell of it is a number) and, from its words,
    which column is which (None: the club admin chooses)."""
    first = rows[0] if rows else []
    header = not any(re.fullmatch(r"\d+[.,]?\d*", cell.strip()) for cell in first if cell)
    columns: dict[str, int | None] = dict.fromkeys(HEADER_WORDS)
    if header:
        for key, words in HEADER_WORDS.items():
            for index, cell in enumerate(first):
                word = cell.strip().casefold()
                if word and any(word == w or (len(w) >= 4 and w in word) for w in words):
                    if index not in columns.values():
                        columns[key] = index
                        break
    return header, columns
