"""Small checks every game's reader shares: values shown as written, integers, penalties."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .base import Penalty
from .errors import EngineError, at, table_error

# Every number a deal or a point table may hold is bounded: a club's largest real values are in
# the hundreds (a bésigue score in the thousands), and a bound far above them keeps every total
# of a season well inside the database's integers.
MAX_VALUE = 1_000_000
# A penalty is a few points per offence (§1.6); ten thousand is already absurd.
MAX_PENALTY = 10_000
# How many times a player declares one combination in a coup, or revokes in a deal.
MAX_COUNT = 99


# A value shown in a message is cut past this many characters: a message stays a line.
SHOWN_LENGTH = 200


def shown(value: Any) -> str:
    """A value as the file wrote it, for messages (JSON when it can be), cut to a line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except RecursionError:
            text = f"a {type(value).__name__} nested too deep"
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + "…"


def is_int(value: Any) -> bool:
    # JSON true/false arrive as bool, which Python counts as int: never a score.
    return isinstance(value, int) and not isinstance(value, bool)


def int_field(
    data: Mapping[str, Any], key: str, place: str, minimum: int, maximum: int = MAX_VALUE
) -> int:
    """``data[key]`` (a point table's setting) as an integer from ``minimum`` to ``maximum``,
    else an error located at ``place.key``."""
    value = data.get(key)
    if not is_int(value) or value < minimum:
        wanted = "a non-negative integer" if minimum == 0 else f"an integer ≥ {minimum}"
        got = "nothing" if key not in data else shown(value)
        raise table_error(at(place, key), f"expected {wanted}, got {got}")
    if value > maximum:
        raise table_error(at(place, key), f"expected at most {maximum}, got {value}")
    return value


def objects_listed(
    raw: Any,
    place: str,
    problems: list[EngineError],
    refused: Callable[[str, str, bool], EngineError],
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """A list of objects in a deal (penalties, whist's revokes), each object with its place.
    A value that is not a list, or an item that is not an object, is the problem ``refused``
    makes of its place, the value shown and whether the whole list was wrong; appended as it
    is met, and the item left out."""
    if not isinstance(raw, list):
        problems.append(refused(place, shown(raw), True))
        return
    for index, item in enumerate(raw):
        if isinstance(item, Mapping):
            yield at(place, index), item
        else:
            problems.append(refused(at(place, index), shown(item), False))


def _penalties_shape(place: str, got: str, whole: bool) -> EngineError:
    shape = '{"player": name, "points": n}'
    expected = f"a list of {shape}" if whole else shape
    return EngineError(place, f"expected {expected}, got {got}", "penalties_shape", {"got": got})


def parse_penalties(
    raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]
) -> tuple[Penalty, ...]:
    """A deal's ``penalties`` (any game, scoring-rules.md §1.6): who pays how much to each other
    active player. Problems are appended, located at ``place.penalties[i]``."""
    if raw is None:
        return ()
    penalties = []
    items = objects_listed(raw, at(place, "penalties"), problems, _penalties_shape)
    for item_place, item in items:
        player, points = item.get("player"), item.get("points")
        if not isinstance(player, str) or player not in seats:
            problems.append(not_at_table(at(item_place, "player"), player))
        elif not is_int(points) or points < 0:
            problems.append(
                EngineError(
                    at(item_place, "points"),
                    f"expected a non-negative integer, got {shown(points)}",
                    "expected_non_negative",
                    {"got": shown(points)},
                )
            )
        elif points > MAX_PENALTY:
            problems.append(
                EngineError(
                    at(item_place, "points"),
                    f"expected at most {MAX_PENALTY}, got {points}",
                    "too_large",
                    {"maximum": MAX_PENALTY, "got": points},
                )
            )
        else:
            penalties.append(Penalty(seats.index(player), points))
    return tuple(penalties)


def not_at_table(place: str, name: Any) -> EngineError:
    """A deal names somebody who does not sit at the table (every game says it alike)."""
    return EngineError(
        place, f"{shown(name)} is not at this table", "not_at_table", {"player": name}
    )


def table_header(data: Any, place: str, game: str) -> tuple[str, str]:
    """Check what every point table starts with; return its name and label."""
    if not isinstance(data, Mapping):
        raise table_error(place, "a point table must be a JSON object")
    if data.get("game", game) != game:
        raise table_error(at(place, "game"), f'expected "{game}", got {shown(data["game"])}')
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise table_error(at(place, "name"), f"expected a non-empty string, got {shown(name)}")
    label = data.get("label", name)
    if not isinstance(label, str):
        raise table_error(at(place, "label"), f"expected a string, got {shown(label)}")
    return name, label
