"""Punctuation as each language writes it: French puts a space before ":" and ";", English and
Dutch do not. Code that glues a label to its value (a template's "Donneur : Anne", a list
joined by "; ") asks here, so French typography never leaks into the other languages."""

from collections.abc import Iterable

from django.utils.translation import get_language

# The languages whose typography puts a space before the high punctuation.
SPACED = ("fr",)


def _spaced() -> bool:
    return (get_language() or "fr").split("-")[0] in SPACED


def colon() -> str:
    """ " :" in French, ":" otherwise (the space after it is the caller's)."""
    return " :" if _spaced() else ":"


def semicolon_join(parts: Iterable[str]) -> str:
    """Parts of one sentence joined by "; " (" ; " in French)."""
    return (" ; " if _spaced() else "; ").join(parts)
