"""What the site can store of a club-night file, checked before and after the engine reads it
(``games.nightfile``): each problem located in words, never a traceback; and the file's texts
in composed form (NFC), as the site stores names."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import orjson
from django.db.backends.base.operations import BaseDatabaseOperations

from club.models import Club, hidden_characters
from scoring.engine.games import game_module
from scoring.engine.night import ScoredNight

# What the site can store of a file, checked before anything is read (each problem located,
# never a traceback): nesting no deeper than a club-night document goes, names that fit their
# columns (a player's name is split into first and last names of 80 characters), no NUL
# character (PostgreSQL refuses it in text), and whole numbers a database column holds.
MAX_DEPTH = 12
NAME_LIMITS = {"club": 120, "season": 40, "name": 120}
PLAYER_NAME_LIMIT = 80
TEXT_LIMIT = 1000
NUMBER_LIMIT = 10**9


# Every limit on a text is above this: a shorter text that shows every character it holds (no
# NUL, no lone surrogate, no control or format character) needs no more look.
SHORTEST_LIMIT = min(*NAME_LIMITS.values(), PLAYER_NAME_LIMIT, TEXT_LIMIT)


def _plain(value: Any) -> bool:
    """A value nothing is to be said of, whatever its place: a short text that shows all its
    characters, a whole number in range, true, false or null."""
    kind = type(value)
    if kind is str:
        return len(value) < SHORTEST_LIMIT and value.isprintable()
    if kind is int:
        return -NUMBER_LIMIT <= value <= NUMBER_LIMIT
    return value is None or kind is bool


def _place(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


# A value's place as the walk holds it: its parent's place and its key (None: the document).
# Written out only where it is needed: a night holds some 40 000 lists and objects, nearly all
# passed over without a word.
Path = tuple[Any, str | int] | None


def _written(path: Path) -> str:
    if path is None:
        return ""
    parent, key = path
    return _place(_written(parent), key)


def document_problems(doc: Any, *, numbers: bool = True) -> list[str]:
    """The file's values the site could not store, each with its place (empty: none). Walks
    the document without recursion, so a deeply nested one is refused, not a crash.
    ``numbers=False`` leaves the numbers to the engine, which says its own limits.

    A value's place is written only where it is needed (a problem, a text's limit): a night
    holds thousands of values, nearly all short texts and small numbers, passed over at once."""
    problems: list[str] = []
    stack: list[tuple[Any, Path, int]] = [(doc, None, 0)]
    while stack and len(problems) < 20:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(
                f"{_written(path) or '(document)'}: nested deeper than {MAX_DEPTH} levels"
            )
            continue
        if isinstance(value, dict):
            for item_key, item in value.items():
                text = str(item_key)
                if not text.isprintable():
                    shown_place = _written(path) or "(document)"
                    if "\x00" in text:
                        problems.append(f"{shown_place}: a key contains a NUL character")
                    elif _surrogates(text):
                        problems.append(f"{shown_place}: a key contains a lone surrogate")
                if depth == MAX_DEPTH or not _plain(item):
                    stack.append((item, (path, text), depth + 1))
            continue
        if isinstance(value, list):
            for index, item in enumerate(value):
                if depth == MAX_DEPTH or not _plain(item):
                    stack.append((item, (path, index), depth + 1))
            continue
        if isinstance(value, str):
            if len(value) < SHORTEST_LIMIT and value.isprintable():
                continue
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not numbers or abs(value) <= NUMBER_LIMIT:
                continue
        elif isinstance(value, float) and (not numbers or abs(value) <= NUMBER_LIMIT):
            continue
        place = _written(path)
        shown_place = place or "(document)"
        if isinstance(value, str):
            limit = NAME_LIMITS.get(place, TEXT_LIMIT)
            if place.startswith("players[") or ".seats[" in place:
                limit = PLAYER_NAME_LIMIT
            # Every name the file gives (a player's, the night's, its club's and season's)
            # follows the one name rule; a free text does not.
            hidden = hidden_characters(value) if limit != TEXT_LIMIT else []
            if "\x00" in value:
                problems.append(f"{shown_place}: contains a NUL character")
            elif _surrogates(value):
                problems.append(f"{shown_place}: contains a lone surrogate (not text)")
            elif hidden:
                codes = ", ".join(dict.fromkeys(hidden))
                problems.append(
                    f"{shown_place}: {value!r} contains a character no page shows ({codes})"
                )
            elif len(value) > limit:
                problems.append(f"{shown_place}: {len(value)} characters, at most {limit}")
        elif isinstance(value, int):
            problems.append(f"{shown_place}: {value} is out of range (±{NUMBER_LIMIT})")
        elif isinstance(value, float):
            problems.append(f"{shown_place}: {value} is out of range (±{NUMBER_LIMIT})")
    return problems


def _small_column() -> int:
    """The largest value of the columns a poule's numbers go to (its round, its table, a
    deal's number: small positive integers, 32 767 in PostgreSQL; SQLite states no limit, so
    the portable one is kept)."""
    return BaseDatabaseOperations.integer_field_ranges["PositiveSmallIntegerField"][1]


def poule_problems(doc: Any) -> list[str]:
    """The poules' numbers the site's columns could not hold, each with its place (a round,
    a table, a number of deals past 32 767), and a ``longer`` that is not true or false:
    checked before the engine reads a single deal."""
    raw_poules = doc.get("poules") if isinstance(doc, dict) else None
    if not isinstance(raw_poules, list):
        return []  # the engine says what a night file needs
    largest = _small_column()
    problems = []
    for index, poule in enumerate(raw_poules):
        if not isinstance(poule, dict):
            continue
        place = f"poules[{index}]"
        for key in ("round", "table"):
            value = poule.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > largest:
                problems.append(f"{place}.{key}: {value} is out of range (at most {largest})")
        deals = poule.get("deals")
        if isinstance(deals, list) and len(deals) > largest:
            problems.append(f"{place}.deals: {len(deals)} deals, at most {largest}")
        if not isinstance(poule.get("longer", False), bool):
            problems.append(f"{place}.longer: expected true or false")
    return problems


def beyond_count_problems(doc: Any, scored: ScoredNight, club: Club) -> list[str]:
    """The poules that played more deals than the club plays at their table, where the file
    does not say that they were longer (``"longer": true``, the score sheet's "la poule est
    plus longue ce soir"). Only for the games played to a set number of deals."""
    if not game_module(scored.game).FIXED_DEALS_PER_POULE:
        return []
    problems = []
    for index, (raw, poule) in enumerate(zip(doc["poules"], scored.poules, strict=True)):
        seats = len(poule.seats)
        count = club.deals_per_poule_5 if seats == 5 else club.deals_per_poule_4
        if poule.score.counted_deals > count and raw.get("longer") is not True:
            problems.append(
                f"poules[{index}].deals: {poule.score.counted_deals} deals played, the club "
                f"plays {count} at a table of {seats}; a longer poule says so "
                '("longer": true)'
            )
    return problems


def composed(doc: Any) -> Any:
    """The document with every text in composed form (NFC), as the site stores names: "Zoé"
    written with a combining accent is the club's Zoé. Its depth is bounded already. A file
    whose texts are all composed (nearly every one) is returned as it is, itself: seen so in
    its JSON text at once, where each text stands between quotes, which compose with
    nothing. The text written by orjson (ten times faster; the same texts between the same
    quotes), or by ``json`` where orjson refuses the document (a key that is not text)."""
    try:
        text = orjson.dumps(doc).decode()
    except TypeError:
        try:
            text = json.dumps(doc, ensure_ascii=False)
        except (TypeError, ValueError):
            text = ""  # not plain JSON: each text looked at
    if text and unicodedata.is_normalized("NFC", text):
        return doc
    return _texts_composed(doc)


def _texts_composed(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {_texts_composed(key): _texts_composed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_texts_composed(item) for item in value]
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None
