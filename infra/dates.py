"""The one formatter for dates written in words: Django's formats, with French's ordinal for
the first of the month (« 1er avril », never « 1 avril »). Django's ``j`` writes the day bare
in every language; French writes the first day as an ordinal and the others as numbers. The
templates' ``date`` filter (``club.templatetags.dates``, a builtin of the Django templates), the
Jinja2 tables and the code all write dates through ``date_written``."""

from __future__ import annotations

import datetime
import functools
import operator
import re
from collections.abc import Callable
from typing import Any

from django.utils import formats
from django.utils.translation import get_language

# An unescaped "j" of a date format (a backslash makes the next letter literal).
DAY = re.compile(r"(?<!\\)((?:\\\\)*)j")


def ordinal_format(value: Any, format: str) -> str:
    """``format`` (a format string, or the name of one such as "DATE_FORMAT") with its day
    written « 1er » when ``value`` is the first of the month and the reader reads French."""
    if not isinstance(value, datetime.date) or value.day != 1:
        return format
    if (get_language() or "fr").split("-")[0] != "fr":
        return format
    written = formats.get_format(format) if format.isupper() else format
    return DAY.sub(r"\1j\\e\\r", written)


# What each letter of a date format made of figures alone writes, as Django's formatter
# writes it (``django.utils.dateformat``): the same in every language. A %-template of the
# date's figures, read together (``operator.attrgetter``): twice as fast as ``str.format``
# reading each attribute from its template.
FIGURES = {
    "d": ("%02d", "day"),
    "j": ("%d", "day"),
    "m": ("%02d", "month"),
    "n": ("%d", "month"),
    "Y": ("%04d", "year"),
}


@functools.lru_cache(maxsize=64)
def in_figures(format: str) -> Callable[[datetime.date], str] | None:
    """What writes a date in ``format`` when it is figures alone (« d/m/Y », no name of a day
    or a month, nothing escaped), else None. Such a date is written without Django's
    formatter, some twenty times faster: « Mes résultats » writes a date a night of the
    season, a player's statistics one a night of his cote's history."""
    template, figures = [], []
    for char in format:
        if char in FIGURES:
            written, figure = FIGURES[char]
            template.append(written)
            figures.append(figure)
        elif char.isalpha() or char == "\\":
            return None
        else:
            template.append(char.replace("%", "%%"))
    text = "".join(template)
    if not figures:
        return lambda value: text % ()
    read = operator.attrgetter(*figures)
    if len(figures) == 1:
        return lambda value: text % (read(value),)
    return lambda value: text % read(value)


def date_written(value: Any, format: str = "DATE_FORMAT") -> str:
    """``value`` as ``formats.date_format`` writes it, the first of the month as « 1er » in
    French."""
    if type(value) is datetime.date:
        written = formats.get_format(format) if format.isupper() else format
        writer = in_figures(written)
        # « j » on the first of the month: the ordinal's to write (``ordinal_format``).
        if writer is not None and (value.day != 1 or "j" not in written):
            return writer(value)
    return formats.date_format(value, ordinal_format(value, format))


def day_written(value: datetime.date) -> str:
    """The day of the month alone: « 1er » for the first in French, else its number."""
    return date_written(value, "j")
