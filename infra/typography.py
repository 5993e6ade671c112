"""Punctuation as each language writes it: French puts a space before ":" and ";", English and
Dutch do not. Code that glues a label to its value (a template's "Donneur : Anne", a list
joined by "; ") asks here, so French typography never leaks into the other languages."""

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from django.utils.html import escape
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


# French elision before a name. A name starting with a vowel sound takes « d' » (« d'Ann »); a
# name starting with an article merges it (« Les As » → « des As », « Le Cercle » → « du
# Cercle », « à Les As » → « aux As »), and « La »/« L' » lose their capital (« de la
# Chevalerie », « de l'As »). An « h » is taken as sounded (« de Hendrik », as Flemish names
# say it) except in the French first names below, whose « h » is mute (« d'Hélène »): a short
# list the club can read, rather than a dictionary that guesses.
MUTE_H = frozenset(
    "helene heloise henri henriette herve hubert hugo hugues hector hermine hortense "
    "hippolyte honore horace hilaire hyacinthe".split()
)
VOWELS = frozenset("aeiouyœæ")
# « de » and « à » merged with the masculine and plural article.
MERGED = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}


def _bare(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _vowel_sound(name: str) -> bool:
    bare = _bare(name)
    if not bare:
        return False
    if bare[0] == "h":
        return re.split(r"[\s'’-]", bare)[0] in MUTE_H
    return bare[0] in VOWELS


def of_name(preposition: str, name: str) -> str:
    """« de »/« à » followed by ``name`` as French writes them together: « d'Ann », « des As »,
    « au Cercle », « de la Chevalerie », « de l'As », « de Bernard » (the preposition keeps its
    capital: « D'Ann »)."""
    capital = preposition[:1].isupper()
    lower = preposition.casefold()
    article = re.match(r"(les|le|la|l['’])(\s*)(?=\S)", name, re.IGNORECASE)
    if article and (article.group(2) or article.group(1)[-1] in "'’"):
        word, rest = article.group(1).casefold(), name[article.end() :]
        if word in ("le", "les"):
            text = f"{MERGED[(lower, word)]} {rest}"
        else:
            # « La » keeps its space, « L' » its apostrophe: both only lose their capital.
            text = f"{lower} {word} {rest}" if word == "la" else f"{lower} {word}{rest}"
    elif lower == "de" and _vowel_sound(name):
        text = f"d'{name}"
    else:
        text = f"{lower} {name}"
    return text[:1].upper() + text[1:] if capital else text


def elided(text: str, *names: str, html: bool = False) -> str:
    """``text`` with each of ``names`` joined to the « de » or « à » before it as French writes
    it (``of_name``), in French only: the other languages' sentences are left as translated.
    The one helper for every sentence that puts a name after « de » or « à »: the sentence is
    written plainly (« la soirée de %(club)s »), so its translations do not change. ``html``:
    ``text`` is HTML where the names are escaped (a template's output)."""
    if (get_language() or "fr").split("-")[0] != "fr":
        return text
    shown = (lambda t: str(escape(t))) if html else str
    for name in {str(n) for n in names if n}:
        pattern = re.compile(rf"(?<![\w'’;])([Dd]e|[Àà]) {re.escape(shown(name))}(?!\w)")
        text = pattern.sub(lambda m, name=name: shown(of_name(m.group(1), name)), text)
    return text


def named(message: str, **names: Any) -> str:
    """``message % names`` with every name joined to its « de » or « à » (``elided``): the
    sentences that name a player, a club or a federation."""
    return elided(str(message) % names, *(str(value) for value in names.values()))
