"""A published ranking's table read from what the club admin has: a CSV file, an Excel
workbook, or the table copied from a web page (its cells come tab-separated, or as the page's
HTML). The result is the table's rows of text, as they were written; what each column is, the
club admin says next (``scoring.services.ranking_import``).

Every reader hands its rows one by one to a ``TableBudget`` (``budget``), which refuses the
table at the first row past a limit, and a workbook's parts are checked before it is opened
(``workbook_budget``): what a file becomes once read, not its size, is what costs a worker its
memory."""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from html.parser import HTMLParser

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl import load_workbook

from .budget import MAX_CELL_CHARACTERS, MAX_COLUMNS, MAX_ROWS, TableBudget, cell_refused
from .workbook_budget import MAX_SHEETS, workbook_not_opened, workbook_parts_check

# The uploaded file itself; what it expands to is held by the budget.
MAX_BYTES = 2_000_000

# What a header says, for proposing each column (French, English, Dutch).
HEADER_WORDS = {
    "rank": ("rang", "rank", "pos", "position", "place", "plaats", "#", "n°", "no", "classement"),
    "name": ("nom", "joueur", "name", "player", "naam", "speler", "membre"),
    "points": ("points", "pts", "point", "punten", "total", "totaal", "score"),
    "nights": ("soirées", "soirees", "nights", "tournois", "présences", "joué", "avonden"),
}


def _table(rows: Iterable[Sequence[object]]) -> list[list[str]]:
    budget = TableBudget()
    for row in rows:
        budget.add(row)
    return budget.table()


def _unreadable() -> ValidationError:
    return ValidationError(_("Ce fichier n'est pas du texte lisible."))


def _text_of(data: bytes) -> str:
    """The file's text as people's files have it: UTF-16 with its byte-order mark (Excel's
    « Texte Unicode »), UTF-8 with or without one, else Windows-1252 (Excel's « CSV »)."""
    encodings = ("utf-8-sig", "cp1252")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encodings = ("utf-16",)
    for encoding in encodings:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        # No name holds a NUL (PostgreSQL refuses it in text): a file with one is no table
        # of names (a UTF-16 export read as bytes, a binary file).
        if "\x00" in text:
            break
        return text
    raise _unreadable()


def table_from_csv(data: bytes) -> list[list[str]]:
    """A CSV file, separated by commas, semicolons (Excel in French) or tabs; its lines end
    as Windows, Unix or the old Mac's Excel end them."""
    text = _text_of(data)
    first = re.split(r"[\r\n]", text, maxsplit=1)[0]
    delimiter = max((";", ",", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return _table(reader)
    except csv.Error as error:
        # Python's reader stops a field at 131 072 characters (csv.field_size_limit: the
        # process's, left as it is for every other thread), far past a cell's limit.
        if str(error).startswith("field larger than field limit"):
            raise cell_refused(reader.line_num) from None
        raise _unreadable() from None


def table_from_xlsx(data: bytes) -> list[list[str]]:
    """The first sheet of an Excel workbook, as its cells show, read row by row (openpyxl's
    read-only mode) after its parts' expanded sizes are checked."""
    workbook_parts_check(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception:  # openpyxl refuses a damaged file with many kinds of error
        raise workbook_not_opened() from None
    try:
        if len(workbook.sheetnames) > MAX_SHEETS:
            raise ValidationError(
                _("Ce classeur a plus de %(count)s feuilles : gardez la feuille à importer seule.")
                % {"count": MAX_SHEETS}
            )
        if not workbook.worksheets:
            return _table(())
        sheet = workbook.worksheets[0]
        # The sheet's own word for its size is not trusted: each row is as long as its last
        # cell, not as the widest (16 384 columns filled in for every row otherwise).
        sheet.reset_dimensions()
        return _table(sheet.iter_rows(max_row=MAX_ROWS + 1, values_only=True))
    except ValidationError:
        raise
    except Exception:  # a part that is not the XML it says, found while reading it
        raise workbook_not_opened() from None
    finally:
        workbook.close()


class _TableParser(HTMLParser):
    """The cells of an HTML table's rows, each row handed to ``budget`` as it ends."""

    def __init__(self, budget: TableBudget) -> None:
        super().__init__()
        self.budget = budget
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._length = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self._row_end()
            self._row = []
        elif tag in ("td", "th"):
            if self._row is None:
                self._row = []
            self._cell, self._length = [], 0
        elif tag == "br" and self._cell is not None:
            self.handle_data(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr":
            self._row_end()

    def handle_data(self, data: str) -> None:
        if self._cell is not None and self._row is not None:
            # Refused as it grows: a cell of a million words is not split into a million.
            self._length += len(data)
            if self._length > MAX_CELL_CHARACTERS:
                raise cell_refused(self.budget.line, len(self._row) + 1)
            self._cell.append(data)

    def close(self) -> None:
        super().close()
        self._row_end()

    def _row_end(self) -> None:
        if self._row is not None:
            self.budget.add(self._row)
            self._row = None


def _lines(text: str) -> Iterator[str]:
    """The text's lines one by one, never all at once."""
    for line in io.StringIO(text, newline=None):
        yield line.rstrip("\n")


def table_from_paste(text: str) -> list[list[str]]:
    """A table copied from a web page: its HTML, its cells separated by tabs (what a browser
    copies), or by two spaces or more (a table typed or printed as text). A line is cut at
    most once past the last column: what is left there is one cell, refused if not blank."""
    if re.search(r"<t[dh][\s>]", text, re.I):
        budget = TableBudget()
        parser = _TableParser(budget)
        parser.feed(text)
        parser.close()
        return budget.table()
    for separator in ("\t", ";"):
        if separator in text:
            return _table(line.split(separator, MAX_COLUMNS) for line in _lines(text))
    return _table(re.split(r"\s{2,}", line.strip(), maxsplit=MAX_COLUMNS) for line in _lines(text))


def table_read(name: str, data: bytes) -> list[list[str]]:
    """An uploaded file's table, by its kind (its name's ending, else its first bytes)."""
    if len(data) > MAX_BYTES:
        raise file_too_big()
    if name.lower().endswith((".xlsx", ".xlsm")) or data[:2] == b"PK":
        return table_from_xlsx(data)
    text = _text_of(data)
    if re.search(r"<t[dh][\s>]", text, re.I):
        return table_from_paste(text)
    return table_from_csv(data)


def file_too_big() -> ValidationError:
    return ValidationError(_("Ce fichier est trop gros (2 Mo au plus)."))


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
