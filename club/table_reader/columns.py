"""The column step both imports take, between the table read and its lines reviewed: the
columns proposed from the headings (each import guesses with its own words), the table's
first rows shown with each column's letter, the columns chosen checked by reading the lines
with them. The page and what waits in the session stay each import's view."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from openpyxl.utils import get_column_letter

from .forms import ColumnsForm

PREVIEW_ROWS = 8


def column_choices(
    rows: list[list[str]], header: bool, sample: bool = False
) -> list[tuple[str, str]]:
    """Each column as the page offers it: its letter and its heading ("C – E-mail"), and with
    ``sample`` a value of its first line ("C – E-mail (anne@example.org)"), so that a table
    without headings is still clear."""
    width = max(len(row) for row in rows)
    heads = rows[0] if header else []
    first = next((row for row in rows[1 if header else 0 :] if any(row)), []) if sample else []
    choices = []
    for index in range(width):
        words = [get_column_letter(index + 1)]
        if index < len(heads) and heads[index]:
            words.append(f"– {heads[index]}")
        if index < len(first) and first[index]:
            words.append(f"({_shortened(first[index])})")
        choices.append((str(index), " ".join(words)))
    return choices


def _shortened(text: str, length: int = 30) -> str:
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= length else text[: length - 1] + "…"


def columns_form(
    request: HttpRequest,
    form_class: type[ColumnsForm],
    rows: list[list[str]],
    guessed: tuple[bool, dict[str, int | None]],
    sample: bool = False,
    **initial: Any,
) -> ColumnsForm:
    """The step's form: the header and the columns as guessed from the headings, or as the
    club admin posted them (the columns offered follow the header he ticked)."""
    header, columns = guessed
    if request.method == "POST":
        header = bool(request.POST.get("header"))
    proposed = {"header": header, **{k: v for k, v in columns.items() if v is not None}}
    return form_class(
        request.POST or None,
        initial={**proposed, **initial},
        choices=column_choices(rows, header, sample),
    )


def columns_chosen(
    request: HttpRequest,
    form: ColumnsForm,
    read: Callable[[dict[str, int | None]], object],
) -> dict[str, int | None] | None:
    """The columns chosen, once posted, valid, and the table's lines read with them (``read``
    refuses in words, said on the form); None while they are not."""
    if request.method != "POST" or not form.is_valid():
        return None
    columns = form.chosen()
    try:
        read(columns)
    except ValidationError as refused:
        for message in refused.messages:
            form.add_error(None, message)
        return None
    return columns


def columns_preview(rows: list[list[str]]) -> dict[str, Any]:
    """The table's first rows under their columns' letters, and how many more it has."""
    return {
        "preview": rows[:PREVIEW_ROWS],
        "letters": [get_column_letter(i + 1) for i in range(max(len(row) for row in rows))],
        "more": max(0, len(rows) - PREVIEW_ROWS),
    }
