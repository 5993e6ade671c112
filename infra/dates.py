"""The one formatter for dates written in words: Django's formats, with French's ordinal for
the first of the month (« 1er avril », never « 1 avril »). Django's ``j`` writes the day bare
in every language; French writes the first day as an ordinal and the others as numbers. The
templates' ``date`` filter (``club.templatetags.dates``, a builtin of the Django templates), the
Jinja2 tables and the code all write dates through ``date_written``."""

from __future__ import annotations

import datetime
import functools
import re
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
# writes it (``django.utils.dateformat``): the same in every language.
FIGURES = {
    "d": "{0.day:02d}",
    "j": "{0.day}",
    "m": "{0.month:02d}",
    "n": "{0.month}",
    "Y": "{0.year:04d}",
}


@functools.lru_cache(maxsize=64)
def in_figures(format: str) -> str | None:
    """``format`` as a ``str.format`` template when it writes figures alone (« d/m/Y », no
    name of a day or a month, nothing escaped), else None. Such a date is written without
    Django's formatter, some ten times faster: « Mes résultats » writes two dates a night of
    the season, a player's statistics one a night of his cote's history."""
    template = []
    for char in format:
        if char in FIGURES:
            template.append(FIGURES[char])
        elif char.isalpha() or char == "\\":
            return None
        else:
            template.append(char.replace("{", "{{").replace("}", "}}"))
    return "".join(template)


def date_written(value: Any, format: str = "DATE_FORMAT") -> str:
    """``value`` as ``formats.date_format`` writes it, the first of the month as « 1er » in
    French."""
    if type(value) is datetime.date:
        written = formats.get_format(format) if format.isupper() else format
        template = in_figures(written)
        # « j » on the first of the month: the ordinal's to write (``ordinal_format``).
        if template is not None and (value.day != 1 or "j" not in written):
            return template.format(value)
    return formats.date_format(value, ordinal_format(value, format))


def day_written(value: datetime.date) -> str:
    """The day of the month alone: « 1er » for the first in French, else its number."""
    return date_written(value, "j")
