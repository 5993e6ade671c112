"""Which column of a members' table is which: proposed from the header's words, confirmed by
the club admin. (The table itself is read by the site's table reader, which offers the columns
on the page: ``club.table_reader``.)"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext_lazy

# The columns a members' table is read by, in the order the page offers them.
COLUMNS = ("name", "first_name", "last_name", "email", "phone", "initials")
COLUMN_LABELS = {
    "name": gettext_lazy("Nom complet"),
    "first_name": gettext_lazy("Prénom"),
    "last_name": gettext_lazy("Nom de famille"),
    "email": gettext_lazy("E-mail"),
    "phone": gettext_lazy("Téléphone"),
    "initials": gettext_lazy("Initiales seulement"),
}

# What a header says (French, English, Dutch), compared without case or accents. "Nom", "Naam"
# or "Name" alone is the whole name, unless a first-name column stands beside it: then it is
# the family name (« Prénom ; Nom », « Voornaam ; Naam », « First name ; Name »).
HEADER_WORDS = {
    "name": ("nom complet", "nom et prenom", "joueur", "membre", "name", "full name", "naam"),
    "first_name": ("prenom", "first name", "firstname", "given name", "voornaam"),
    "last_name": ("nom de famille", "last name", "surname", "family name", "achternaam"),
    "email": ("e-mail", "email", "courriel", "mail", "adresse e-mail", "e-mailadres"),
    "phone": ("telephone", "tel", "tel.", "gsm", "phone", "mobile", "portable", "telefoon"),
    "initials": ("initiales", "initiales seulement", "initials", "initialen", "anonyme"),
}


# The bare words that are the family name beside a first-name column, the whole name alone.
FAMILY_BESIDE_FIRST = ("nom", "naam", "name")


def _bare(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _column_of(heading: str) -> str | None:
    """The column a heading names, its exact words first, then a long word inside it."""
    word = _bare(heading).rstrip(" :")
    if not word:
        return None
    for key, words in HEADER_WORDS.items():
        if word in words:
            return key
    if word in FAMILY_BESIDE_FIRST:
        return "name"
    for key, words in HEADER_WORDS.items():
        if any(len(w) >= 5 and w in word for w in words):
            return key
    return None


def columns_guess(rows: list[list[str]]) -> tuple[bool, dict[str, int | None]]:
    """Whether the first row names the columns (no address in it, and a heading this module
    knows) and, from its words, which column is which (None: the club admin chooses)."""
    first = rows[0] if rows else []
    columns: dict[str, int | None] = dict.fromkeys(COLUMNS)
    if any("@" in cell for cell in first):
        return False, columns
    for index, cell in enumerate(first):
        key = _column_of(cell)
        if key is not None and columns[key] is None:
            columns[key] = index
    if columns["first_name"] is not None and columns["name"] is not None:
        if columns["last_name"] is None and _bare(first[columns["name"]]) in FAMILY_BESIDE_FIRST:
            columns["last_name"], columns["name"] = columns["name"], None
    header = any(index is not None for index in columns.values())
    return header, columns
