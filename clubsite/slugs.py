"""A page's short address (its slug) and the anchors of its headings, written the one way the
club reads them: « Règlement interne » is ``reglement-interne``, « Cœurs » is ``coeurs``.

Django's ``slugify`` drops what NFKD cannot split into a letter and its accents (œ, æ, ß, ø,
ł…), which would turn « Cœur » into ``cur``: those letters are spelled out first."""

from __future__ import annotations

import unicodedata

from django.utils.text import slugify

# The letters NFKD leaves whole, as a French, Dutch or Polish reader spells them in ASCII.
SPELLED_OUT = str.maketrans(
    {
        "œ": "oe",
        "Œ": "OE",
        "æ": "ae",
        "Æ": "AE",
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
    }
)
SLUG_MAX = 60


def slug_of(text: str, max_length: int = SLUG_MAX) -> str:
    """``text`` as an address or an anchor: lower case ASCII words joined by hyphens."""
    folded = unicodedata.normalize("NFKD", text.translate(SPELLED_OUT))
    ascii_text = folded.encode("ascii", "ignore").decode("ascii")
    return slugify(ascii_text)[:max_length].strip("-")
