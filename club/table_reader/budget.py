"""What reading a ranking's table may cost, checked while it is read.

A published ranking is a few hundred lines of a few short cells. The limits below are on what
the file becomes once read — its workbook's parts expanded, its cells and their characters —
and not on the file's size: a 215 kB workbook whose one shared string of 20 000 characters
fills 2 000 × 40 cells is 1.6 billion characters once read (3.1 GB in a worker, measured). A
file past a limit is refused in the club's words, naming the limit, before the next cell is
read; nothing is kept of it. A workbook's parts are checked before it is opened
(``workbook_budget``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl.utils import get_column_letter

from ..exports import guard_removed

# Enough for any club's ranking; a bigger table is something else.
MAX_ROWS = 2000
MAX_COLUMNS = 40
# A name, a rank, a number of points: a cell longer than this is not a ranking's.
MAX_CELL_CHARACTERS = 1000
# All the cells together (they wait in the club admin's session between the pages): a full
# 2 000 × 40 table of 12-character cells.
MAX_CHARACTERS = 1_000_000

# How a refusal names the table, until the import names it with its own words (a ranking, a
# list of members: ``TableForm.table_words``), which fill the same places of the message.
TABLE_WORDS = {"this_table": gettext_lazy("Ce tableau"), "of_table": gettext_lazy("d'un tableau")}


def count_words(value: int) -> str:
    """A limit as the page writes it: 1 000 in French, 1,000 in English."""
    return number_format(value, force_grouping=True)


def _refused_rows() -> ValidationError:
    return ValidationError(
        _("Ce tableau a plus de %(count)s lignes : est-ce bien le bon fichier ?")
        % {"count": count_words(MAX_ROWS)}
    )


def cell_refused(line: int, column: int | None = None) -> ValidationError:
    """A cell longer than any ranking's, at ``line`` (and ``column``, when the reader knows
    it: Python's CSV reader stops at its own limit before saying where)."""
    if column is None:
        return ValidationError(
            _(
                "Une cellule dépasse %(count)s caractères (ligne %(line)s) : "
                "est-ce bien le bon fichier ?"
            )
            % {"count": count_words(MAX_CELL_CHARACTERS), "line": line}
        )
    return ValidationError(
        _(
            "Une cellule dépasse %(count)s caractères (ligne %(line)s, colonne %(column)s) : "
            "est-ce bien le bon fichier ?"
        )
        % {
            "count": count_words(MAX_CELL_CHARACTERS),
            "line": line,
            "column": get_column_letter(column),
        }
    )


def cell_text(value: object) -> str:
    """A cell as the table shows it: a whole number without its ".0", no spaces around."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


class TableBudget:
    """A table built row by row as a reader reads it, refused at the first row past a limit.

    Blank rows are kept between rows (a ranking's table may have them) but not after the last:
    a file's trailing blank lines cost nothing, however many."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self._blank: list[list[str]] = []
        self._read = 0
        self._characters = 0

    @property
    def line(self) -> int:
        """The number of the row being read (1: the first)."""
        return self._read + 1

    def add(self, values: Sequence[object]) -> None:
        line = self.line
        self._read = line
        cells = []
        for column, value in enumerate(values[:MAX_COLUMNS], start=1):
            raw = value if isinstance(value, str) else cell_text(value)
            if len(raw) > MAX_CELL_CHARACTERS:
                raise cell_refused(line, column)
            # A table the site exported comes back without the quotes it wrote.
            text = guard_removed(raw.strip())
            self._characters += len(text)
            if self._characters > MAX_CHARACTERS:
                raise ValidationError(
                    _(
                        "Ce tableau dépasse %(count)s caractères en tout (à la ligne %(line)s) : "
                        "est-ce bien le bon fichier ?"
                    )
                    % {"count": count_words(MAX_CHARACTERS), "line": line}
                )
            cells.append(text)
        self._beyond_columns(values, line)
        if not any(cells):
            if line <= MAX_ROWS:
                self._blank.append(cells)
            return
        if line > MAX_ROWS:
            raise _refused_rows()
        self.rows += self._blank
        self._blank = []
        self.rows.append(cells)

    @staticmethod
    def _beyond_columns(values: Sequence[object], line: int) -> None:
        """A value past the last column is refused; empty cells there (a sheet formatted
        further than it is filled, a CSV's trailing separators) are not."""
        beyond = values[MAX_COLUMNS:]
        if not beyond or beyond.count(None) + beyond.count("") == len(beyond):
            return
        if any(cell_text(value) for value in beyond):
            raise ValidationError(
                _(
                    "%(this_table)s a plus de %(count)s colonnes : la ligne %(line)s a une "
                    "valeur après la colonne %(column)s."
                ),
                params={
                    **TABLE_WORDS,
                    "count": MAX_COLUMNS,
                    "line": line,
                    "column": get_column_letter(MAX_COLUMNS),
                },
            )

    def table(self) -> list[list[str]]:
        if not self.rows:
            raise ValidationError(_("Ce tableau est vide."))
        return self.rows
