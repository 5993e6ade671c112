"""A name typed in a search field found by the database as the site compares names
(``club.models.name_key``): whatever the case, the accents and the ligatures, "chloe" finds
« Chloé », "strasse" « Straße », "loetitia" « Lœtitia ».

Each player keeps his shown name folded (``Player.name_key``, indexed), so the database
compares the typed words, folded the same way, with it; ``name_holds`` checks a text the
database does not keep folded (a club's name, a name as shown to the viewer: initials) by the
same rule.
"""

from __future__ import annotations

from django.db.models import Q

from .models import name_key


def typed_words(typed: str) -> list[str]:
    """The words of a search, as ``name_key`` writes them (none: nothing to search)."""
    return [word for word in name_key(typed).split() if word]


def name_filter(words: list[str], player: str = "") -> Q:
    """The players whose shown name holds every word (``player``: the path to the player
    from the rows filtered, "player" from a ranking's lines; none from players)."""
    field = f"{player}__name_key__contains" if player else "name_key__contains"
    found = Q()
    for word in words:
        found &= Q(**{field: word})
    return found


def name_holds(text: str, words: list[str]) -> bool:
    """Whether ``text`` holds every typed word, by the site's rule (``name_key``)."""
    key = name_key(text)
    return all(word in key for word in words)
