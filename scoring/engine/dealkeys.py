"""What a deal may hold: the keys each game knows, each with its type and bounds, as data.

Each game declares its deal once (``DEAL_KEYS`` in its module, a ``Fields``) and every deal
it reads is held against it before its rules read it (``parsing.read_deal``): whatever the way
in — the score sheet, the API, a night file, the admin — a deal the site stores holds only the
keys its game knows, texts no longer than stated, lists no longer than stated, and nothing
nested deeper than the declaration goes. A deal's JSON then always fits its column, its page,
its export and the night's file.

Two kinds of problems, each located (``deals[3].tricks.team``) and coded:

- its *size and shape* — an unknown key (``deal_key_unknown``), a text too long
  (``text_too_long``), a list or an object with too many items (``too_many_items``), a list or
  an object where the declaration has none (``value_kind``) — refuse the deal before its rules
  read it: they never see a value larger than its declaration;
- a *scalar of the wrong type or outside its bounds* (``value_kind``, ``integer_outside``) is
  left to the game's rules first, which say in their own words what they expect (``bid``: "an
  integer", ``tricks``: "0 … 13"); only a value the rules left unread (the bid of a pass) is
  refused by the declaration.

A JSON ``null`` stands for a key left out: whether a key is needed is the rules' to say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from .errors import EngineError, at
from .parsing import MAX_PENALTY, shown

# A name in a deal: a seat number on the site ("1" … "7"), a player's name in a night file.
NAME_LENGTH = 120
# A code the engine knows (a contract, a combination): the longest is about twenty letters.
CODE_LENGTH = 40
# How many penalties one deal may carry (a few per deal at the most, in real life).
MAX_PENALTIES = 20


@dataclass(frozen=True, slots=True)
class Text:
    max_length: int = NAME_LENGTH


@dataclass(frozen=True, slots=True)
class Integer:
    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class Flag:
    """``true`` or ``false``."""


@dataclass(frozen=True, slots=True)
class ListOf:
    item: Spec
    max_items: int


@dataclass(frozen=True, slots=True)
class Keyed:
    """An object whose keys are free (a player's name, a combination's code): each key a text
    of at most ``key.max_length`` characters, each value a ``value``."""

    value: Spec
    max_items: int
    key: Text = field(default_factory=Text)


@dataclass(frozen=True, slots=True)
class Fields:
    """An object with named keys: no other key is allowed."""

    fields: Mapping[str, Spec]


@dataclass(frozen=True, slots=True)
class Either:
    """One of several declarations, told apart by the value's JSON kind (a name or a list)."""

    options: tuple[Spec, ...]


Spec = Union[Text, Integer, Flag, ListOf, Keyed, Fields, Either]  # noqa: UP007 (a runtime alias)

NAME = Text(NAME_LENGTH)
CODE = Text(CODE_LENGTH)


# Any game (night-format.md): ``penalties``: ``[{"player": name, "points": p}]``; ``dealer``: a
# name (Belgian whist follows it; the other games write it in their result files, and a night
# imported from one keeps it).
PENALTIES = ListOf(Fields({"player": NAME, "points": Integer(0, MAX_PENALTY)}), MAX_PENALTIES)
DEALER = NAME


def _kind(spec: Spec) -> tuple[type, ...]:
    if isinstance(spec, Text):
        return (str,)
    if isinstance(spec, Integer):
        return (int,)
    if isinstance(spec, Flag):
        return (bool,)
    if isinstance(spec, ListOf):
        return (list, tuple)
    return (Mapping,)


def _matches(spec: Spec, value: Any) -> bool:
    if isinstance(spec, Either):
        return any(_matches(option, value) for option in spec.options)
    if isinstance(value, bool):
        return isinstance(spec, Flag)
    return isinstance(value, _kind(spec))


def _chosen(spec: Spec, value: Any) -> Spec | None:
    if isinstance(spec, Either):
        return next((option for option in spec.options if _matches(option, value)), None)
    return spec if _matches(spec, value) else None


def _wanted(spec: Spec) -> str:
    if isinstance(spec, Either):
        return " or ".join(_wanted(option) for option in spec.options)
    if isinstance(spec, Text):
        return "a text"
    if isinstance(spec, Integer):
        return "an integer"
    if isinstance(spec, Flag):
        return "true or false"
    if isinstance(spec, ListOf):
        return "a list"
    return "an object"


def _outline(value: Any) -> str:
    """A value in a few characters, whatever its size: never the value itself when large."""
    if isinstance(value, Mapping):
        return f"an object of {len(value)} keys"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 40 else f"a text of {len(value)} characters"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _kind_problem(place: str, spec: Spec, value: Any) -> EngineError:
    got = _outline(value)
    return EngineError(place, f"expected {_wanted(spec)}, got {got}", "value_kind", {"got": got})


@dataclass(slots=True)
class DealCheck:
    """A deal held against its declaration: the problems that refuse it before its rules read
    it (``blocking``), and those that refuse it only if its rules accepted it (``later``)."""

    blocking: list[EngineError] = field(default_factory=list)
    later: list[EngineError] = field(default_factory=list)


Rules = Callable[[Any, Mapping[str, Any], Sequence[str], str, list[EngineError]], Any]


def deal_reader(game: str, spec: Fields, rules: Rules) -> Callable[..., Any]:
    """A game's ``parse_deal(point_table, raw, seats, place, problems)``: ``read_deal`` around
    the game's ``rules`` (see games/__init__.py)."""

    def parse_deal(
        point_table: Any, raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]
    ) -> Any:
        return read_deal(game, spec, rules, point_table, raw, seats, place, problems)

    parse_deal.__doc__ = rules.__doc__
    parse_deal.__qualname__ = parse_deal.__name__ = "parse_deal"
    return parse_deal


def read_deal(
    game: str,
    spec: Fields,
    rules: Rules,
    point_table: Any,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Any:
    """What every game's ``parse_deal`` does around its rules: a deal is an object, held
    against its declaration (``spec``) before ``rules`` read it, and refused for a value the
    rules left unread that its declaration does not allow. Problems are appended, located;
    returns the rules' deal, or ``None`` when there is any problem."""
    found = len(problems)
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"a deal must be an object, got {shown(raw)}",
                "deal_not_object",
                {"got": shown(raw)},
            )
        )
        return None
    check = check_deal(spec, raw, place, game)
    if check.blocking:
        problems.extend(check.blocking)
        return None
    deal = rules(point_table, raw, seats, place, problems)
    if len(problems) != found:
        return None
    if check.later:
        problems.extend(check.later)
        return None
    return deal


def check_deal(spec: Fields, raw: Mapping[str, Any], place: str, game: str) -> DealCheck:
    """Hold one deal (an object already) against its game's declaration."""
    check = DealCheck()
    _check_fields(spec, raw, place, check, game)
    return check


def _check_fields(
    spec: Fields, raw: Mapping[str, Any], place: str, check: DealCheck, game: str = ""
) -> None:
    allowed = ", ".join(spec.fields)
    for key, value in raw.items():
        key_place = at(place, key) if isinstance(key, str) else place
        item = spec.fields.get(key) if isinstance(key, str) else None
        if item is None:
            text = str(key)
            if len(text) > CODE_LENGTH:
                text = text[:CODE_LENGTH] + "…"
            whose = f"a {game} deal" if game else "this object"
            check.blocking.append(
                EngineError(
                    place,
                    f'unknown key "{text}": {whose} may hold {allowed}',
                    "deal_key_unknown",
                    {"key": text, "allowed": allowed},
                )
            )
            continue
        _check(item, value, key_place, check)


def _check(spec: Spec, value: Any, place: str, check: DealCheck) -> None:
    if value is None:
        return
    chosen = _chosen(spec, value)
    if chosen is None:
        # A value of another type is the rules' to name first when they can read it in one
        # look (a scalar, or a few of them in a list or an object); a larger or nested one
        # would take them as deep and as long as it goes.
        problem = _kind_problem(place, spec, value)
        if isinstance(value, str) and _long_text(value, NAME_LENGTH, place, check):
            return
        if _glance(value):
            check.later.append(problem)
        else:
            check.blocking.append(problem)
        return
    if isinstance(chosen, Text):
        _long_text(value, chosen.max_length, place, check)
    elif isinstance(chosen, Integer):
        if not chosen.minimum <= value <= chosen.maximum:
            got = _outline(value)
            check.later.append(
                EngineError(
                    place,
                    f"expected an integer from {chosen.minimum} to {chosen.maximum}, got {got}",
                    "integer_outside",
                    {"minimum": chosen.minimum, "maximum": chosen.maximum, "got": got},
                )
            )
    elif isinstance(chosen, ListOf):
        if _many(value, chosen.max_items, place, check):
            return
        for index, item in enumerate(value):
            _check(chosen.item, item, at(place, index), check)
    elif isinstance(chosen, Keyed):
        if _many(value, chosen.max_items, place, check):
            return
        for key, item in value.items():
            if not isinstance(key, str):
                check.blocking.append(_kind_problem(place, chosen.key, key))
            elif not _long_text(key, chosen.key.max_length, place, check):
                _check(chosen.value, item, at(place, key), check)
    elif isinstance(chosen, Fields):
        _check_fields(chosen, value, place, check)


def _glance(value: Any) -> bool:
    """A scalar, or a flat list or object of a few short scalars."""
    if isinstance(value, Mapping):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        items = [value]
    if len(items) > 2 * MAX_PENALTIES:
        return False
    return all(
        not isinstance(item, Mapping | list | tuple)
        and (not isinstance(item, str) or len(item) <= NAME_LENGTH)
        for item in items
    )


def _long_text(value: Any, maximum: int, place: str, check: DealCheck) -> bool:
    if not isinstance(value, str) or len(value) <= maximum:
        return False
    check.blocking.append(
        EngineError(
            place,
            f"a text of {len(value)} characters, at most {maximum}",
            "text_too_long",
            {"maximum": maximum, "got": len(value)},
        )
    )
    return True


def _many(value: Any, maximum: int, place: str, check: DealCheck) -> bool:
    if len(value) <= maximum:
        return False
    check.blocking.append(
        EngineError(
            place,
            f"{len(value)} items, at most {maximum}",
            "too_many_items",
            {"maximum": maximum, "got": len(value)},
        )
    )
    return True
