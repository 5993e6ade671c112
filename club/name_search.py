"""A name typed in a search field found by the database as the site compares names
(``club.models.name_key``): whatever the case and the accents, "chloe" finds « Chloé ».

The database cannot fold accents the same way on SQLite and PostgreSQL, so each typed word
becomes a regular expression where a letter stands for itself and each of its accented forms
(``name_pattern``): the database keeps a few candidates, and ``name_holds`` checks each of them
with ``name_key`` itself, so that nothing is found that the site's rule would not find.
"""

from __future__ import annotations

import re
from functools import cache

from django.db.models import Q

from .models import name_key

# The Latin letters with their accents (Latin-1 and Latin Extended-A and B): enough for every
# name the clubs write.
_ACCENTED = range(0xC0, 0x250)


@cache
def _letter_forms() -> dict[str, str]:
    """Each plain letter and every character ``name_key`` folds into it, both cases."""
    forms: dict[str, set[str]] = {}
    for code in _ACCENTED:
        char = chr(code)
        folded = name_key(char)
        if len(folded) == 1 and folded.isascii() and folded.isalpha():
            forms.setdefault(folded, {folded, folded.upper()}).update({char, char.lower()})
    return {letter: "".join(sorted(chars)) for letter, chars in forms.items()}


def name_pattern(word: str) -> str:
    """A regular expression that finds ``word`` (a word of ``typed_words``, already as
    ``name_key`` writes it) in a name whatever its accents and case. A letter ``name_key``
    writes as two (« ß », « ﬁ ») is not found by its two letters: a rare miss, never a wrong
    find."""
    forms = _letter_forms()
    return "".join(f"[{re.escape(forms[c])}]" if c in forms else re.escape(c) for c in word)


def typed_words(typed: str) -> list[str]:
    """The words of a search, as ``name_key`` writes them (none: nothing to search)."""
    return [word for word in name_key(typed).split() if word]


def name_filter(field: str, words: list[str]) -> Q:
    """The rows whose ``field`` holds every word (a candidate: ``name_holds`` decides)."""
    found = Q()
    for word in words:
        found &= Q(**{f"{field}__iregex": name_pattern(word)})
    return found


def name_holds(text: str, words: list[str]) -> bool:
    """Whether ``text`` holds every typed word, by the site's rule (``name_key``)."""
    key = name_key(text)
    return all(word in key for word in words)
