"""The games the engine scores, one module each, all with the same shape.

A game module provides:

``GAME``
    its code in the club-night file (``belgian_whist``, ``whist``, ``hearts``, ``besigue``).
``load_table(data, place="") -> PointTable``
    validate a point table (a preset's JSON or a club's own) and return it frozen; a bad value
    raises ``EngineError`` naming the row and the value (``rows[3].declarer[5]``).
``parse_deal(point_table, raw, seats, place, problems) -> Deal | None``
    check one deal as written in the club-night file (players named as in ``seats``) against the
    loaded point table (which contracts or combinations exist), append
    every located problem to ``problems`` (an ``EngineError`` with its code and parameters) and
    return the frozen deal (players as seat indexes), or ``None`` when it has problems.
``DEAL_KEYS``
    the keys a deal may hold, each with its type and bounds (``dealkeys.Fields``): every
    ``parse_deal`` holds a deal against it first (``dealkeys.deal_reader``).
``score_poule(point_table, seat_count, deals) -> PouleScore``
    score a poule's deals in playing order; deals that break the rules only the whole
    sequence can check raise ``DocumentRefused`` (or ``EngineError`` for one), each problem
    located at ``deals[i]…``.
``PLAYERS``
    the ``range`` of table sizes the game allows.

The game's facts, which the site asks here rather than testing a game's code:

``LOWER_IS_BETTER``
    totals rank ascending (hearts: points are bad).
``RECORDS_DEALER``
    the sheet follows a dealer (``PouleScore.dealers`` are seat indexes, never ``None``).
``MORT_AT``
    the table size at which the dealer of each deal sits out (the *mort*), or ``None``.
``FIXED_DEALS_PER_POULE``
    a club plays a set number of deals per poule, and a shorter poule is warned about.

What counts as a deal toward the poule's number is ``PouleScore.counted``, per deal.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

# A game's code is its module's name.
GAME_CODES = ("belgian_whist", "whist", "hearts", "besigue")


# Each game's module once imported: the results page asks it for every deal's mort.
_MODULES: dict[str, ModuleType] = {}


def game_module(code: str) -> ModuleType:
    """The module that scores ``code``; ``KeyError`` for a game the engine does not know."""
    module = _MODULES.get(code)
    if module is None:
        if code not in GAME_CODES:
            raise KeyError(code)
        module = _MODULES[code] = import_module(f"{__name__}.{code}")
    return module


def mort(code: str, seat_count: int, dealer: int | None) -> int | None:
    """The seat index that sits out a deal dealt by ``dealer`` at a table of ``seat_count``
    (the *mort*), or ``None`` when everybody plays it."""
    if dealer is None or game_module(code).MORT_AT != seat_count:
        return None
    return dealer
