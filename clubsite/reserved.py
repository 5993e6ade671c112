"""The words a club's page may not take as its address: every first word of an address under
``/clubs/<slug>/`` (``gestion``, ``classement``, ``soirees``…), read from the URL resolver so
that a page added tomorrow is protected the day it is merged, and the club site's own
addresses besides (some of them built beside this app, not yet in the resolver)."""

from __future__ import annotations

from typing import Any

from django.urls import URLResolver, get_resolver

CLUB_PREFIX = "clubs/<slug:slug>/"
# The club site's addresses (issue #40), whether or not their views are merged yet.
SITE_WORDS = frozenset(
    {
        "gestion",
        "classement",
        "classements",
        "soirees",
        "membres",
        "actualites",
        "photos",
        "palmares",
        "contact",
        "table-des-points",
        "pages",
        "site",
    }
)


def _first_words(patterns: list[Any], prefix: str) -> set[str]:
    words: set[str] = set()
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(CLUB_PREFIX) and len(route) > len(CLUB_PREFIX):
            word = route[len(CLUB_PREFIX) :].split("/")[0]
            # The page's own address (``<slug:page>/``) is a parameter, not a word.
            if word and not word.startswith("<"):
                words.add(word)
        elif isinstance(pattern, URLResolver) and CLUB_PREFIX.startswith(route):
            words |= _first_words(pattern.url_patterns, route)
    return words


def reserved_slugs() -> frozenset[str]:
    """Every word a page's slug may not be (read afresh: a save is rare, the walk is short)."""
    return frozenset(_first_words(get_resolver().url_patterns, "")) | SITE_WORDS
