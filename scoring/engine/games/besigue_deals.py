"""The bésigue family: a coup of the club-night file (night-format.md), checked and read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..dealkeys import (
    CODE,
    DEALER,
    NAME,
    PENALTIES,
    Fields,
    Integer,
    Keyed,
    deal_reader,
)
from ..errors import EngineError, at
from ..parsing import MAX_COUNT, MAX_VALUE, is_int, not_at_table, parse_penalties, shown
from .besigue_rules import COMBINATIONS, GAME, PLAYERS, Deal, PointTable, check_deal

# What a coup may hold (dealkeys.py): each key, its type and its bounds.
MAX_SEATS = PLAYERS.stop - 1
DEAL_KEYS = Fields(
    {
        "declarations": Keyed(Keyed(Integer(0, MAX_COUNT), len(COMBINATIONS), key=CODE), MAX_SEATS),
        "brisques": Keyed(Integer(0, MAX_VALUE), MAX_SEATS),
        "last_trick": NAME,
        "penalties": PENALTIES,
        "dealer": DEALER,
    }
)


def _read(
    point_table: PointTable,
    raw: Mapping[str, Any],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one coup of the club-night file; append located problems, return it or None.

    ``{"declarations": {name: {code: count}}, "brisques": {name: count}, "last_trick": name,
    "penalties": [...]}`` — a player left out declared nothing / took no brisque.
    """
    found = len(problems)
    declarations = _parse_declarations(
        point_table, raw.get("declarations"), seats, at(place, "declarations"), problems
    )
    brisques = None
    raw_brisques = raw.get("brisques")
    if raw_brisques is not None or point_table.brisques != "ignored":
        brisques = _parse_brisques(
            point_table, raw_brisques, seats, at(place, "brisques"), problems
        )
    last_trick = raw.get("last_trick")
    if last_trick not in seats:
        got = "nothing" if last_trick is None else f"{shown(last_trick)}, who is not at this table"
        problems.append(
            EngineError(
                at(place, "last_trick"),
                f"expected the player who won the last trick, got {got}",
                "last_trick_missing" if last_trick is None else "last_trick_not_at_table",
                {"player": last_trick},
            )
        )
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)
    if len(problems) != found or declarations is None:
        return None
    deal = Deal(
        declarations=declarations,
        brisques=brisques,
        last_trick=seats.index(last_trick),
        penalties=penalties,
    )
    if len(seats) == point_table.players:
        try:
            check_deal(point_table, deal, len(seats))
        except EngineError as error:
            problems.append(error.moved(place))
            return None
    return deal


parse_deal = deal_reader(GAME, DEAL_KEYS, _read)


def _parse_declarations(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> tuple[tuple[tuple[str, int], ...], ...] | None:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"expected an object player name → {{combination: count}}, got {shown(raw)}",
                "declarations_shape",
                {"got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    per_seat: list[tuple[tuple[str, int], ...]] = [()] * len(seats)
    for name, counts in raw.items():
        name_place = at(place, name)
        if name not in seats:
            problems.append(not_at_table(place, name))
            continue
        if not isinstance(counts, Mapping):
            problems.append(
                EngineError(
                    name_place,
                    f"expected an object combination code → count, got {shown(counts)}",
                    "declarations_shape",
                    {"got": shown(counts)},
                )
            )
            continue
        pairs = []
        for code, count in counts.items():
            if code not in point_table.combinations:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f'not a combination of point table "{point_table.name}"; '
                        f"expected one of {', '.join(point_table.combinations)}",
                        "combination_not_in_table",
                        {"combination": code, "table": point_table.label},
                    )
                )
            elif not is_int(count) or count < 0:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f"expected a non-negative integer, got {shown(count)}",
                        "expected_non_negative",
                        {"got": shown(count)},
                    )
                )
            elif count > MAX_COUNT:
                problems.append(
                    EngineError(
                        at(name_place, code),
                        f"expected at most {MAX_COUNT}, got {count}",
                        "too_large",
                        {"maximum": MAX_COUNT, "got": count},
                    )
                )
            elif count:
                pairs.append((code, count))
        per_seat[seats.index(name)] = tuple(pairs)
    return tuple(per_seat) if len(problems) == found else None


def _parse_brisques(
    point_table: PointTable,
    raw: Any,
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> tuple[int, ...] | None:
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f"expected an object player name → brisques taken "
                f"({point_table.deck_brisques} in all), got {shown(raw)}",
                "brisques_shape",
                {"expected": point_table.deck_brisques, "got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    brisques = [0] * len(seats)
    for name, count in raw.items():
        if name not in seats:
            problems.append(not_at_table(place, name))
        elif not is_int(count) or not 0 <= count <= point_table.deck_brisques:
            problems.append(
                EngineError(
                    at(place, name),
                    f"expected 0 … {point_table.deck_brisques} brisques, got {shown(count)}",
                    "brisques_outside",
                    {"player": name, "maximum": point_table.deck_brisques, "got": shown(count)},
                )
            )
        else:
            brisques[seats.index(name)] = count
    return tuple(brisques) if len(problems) == found else None
