"""Classic whist: a deal of the club-night file (night-format.md), checked and read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..dealkeys import DEALER, NAME, PENALTIES, Fields, Flag, Integer, ListOf, deal_reader
from ..errors import EngineError, at
from ..parsing import MAX_COUNT, is_int, not_at_table, objects_listed, parse_penalties, shown
from .whist_rules import (
    GAME,
    SEATS,
    TRICKS,
    Deal,
    PointTable,
    Team,
    no_chante_error,
    table_size_error,
    team_numbers,
)


def _names(team: Team, seats: Sequence[str]) -> str:
    return f"{seats[team[0]]} + {seats[team[1]]}"


def _team(raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]) -> Team | None:
    if not isinstance(raw, list) or len(raw) != 2:
        problems.append(
            EngineError(
                place,
                f"expected a list of 2 player names, got {shown(raw)}",
                "team_shape",
                {"got": shown(raw)},
            )
        )
        return None
    found = len(problems)
    for name in raw:
        if name not in seats:
            problems.append(not_at_table(place, name))
    if len(problems) != found:
        return None
    if raw[0] == raw[1]:
        problems.append(
            EngineError(
                place,
                f"{shown(raw[0])} is named twice, expected two partners",
                "team_player_twice",
                {"player": raw[0]},
            )
        )
        return None
    first, second = sorted(seats.index(name) for name in raw)
    return first, second


def _partition(team: Team) -> tuple[Team, Team]:
    rest = tuple(s for s in range(SEATS) if s not in team)
    other: Team = (rest[0], rest[1])
    return (team, other) if 0 in team else (other, team)


def _side(
    team: Team,
    teams: tuple[Team, Team],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> int | None:
    if team in teams:
        return teams.index(team)
    problems.append(
        EngineError(
            place,
            f"{_names(team, seats)} is not a team of this deal, expected "
            f"{_names(teams[0], seats)} or {_names(teams[1], seats)}",
            "not_a_team",
            {
                "players": [seats[s] for s in team],
                "team": team_numbers(teams[0]),
                "other": team_numbers(teams[1]),
            },
        )
    )
    return None


# What a whist deal may hold (dealkeys.py): each key, its type and its bounds.
TEAM = ListOf(NAME, SEATS)
DEAL_KEYS = Fields(
    {
        "tricks": Fields({"team": TEAM, "tricks": Integer(0, TRICKS)}),
        "honours": Fields({"team": TEAM, "count": Integer(3, 4)}),
        "revokes": ListOf(Fields({"team": TEAM, "count": Integer(1, MAX_COUNT)}), 2),
        "not_played": Flag(),
        "penalties": PENALTIES,
        "dealer": DEALER,
    }
)


def _revokes_shape(place: str, got: str, whole: bool) -> EngineError:
    shape = '{"team": [name, name], "count": n}'
    expected = f"a list of {shape}" if whole else shape
    return EngineError(place, f"expected {expected}, got {got}", "revokes_shape", {"got": got})


def _read(
    point_table: PointTable,
    raw: Mapping[str, Any],
    seats: Sequence[str],
    place: str,
    problems: list[EngineError],
) -> Deal | None:
    """Check one whist deal of the club-night file; append located problems, return it or None.

    ``{"tricks": {"team": [name, name], "tricks": 9}, "honours": {"team": [...], "count": 4},
    "revokes": [{"team": [...], "count": 1}], "not_played": false, "penalties": [...]}``.
    """
    found = len(problems)
    if len(seats) != SEATS:
        problems.append(table_size_error(place, len(seats)))
        return None
    not_played = raw.get("not_played", False)
    if not isinstance(not_played, bool):
        problems.append(
            EngineError(
                at(place, "not_played"),
                f"expected true or false, got {shown(not_played)}",
                "expected_true_or_false",
                {"got": shown(not_played)},
            )
        )
        return None
    penalties = parse_penalties(raw.get("penalties"), seats, place, problems)

    teams: tuple[Team, Team] | None = None
    tricks: tuple[int, int] | None = None
    if not_played:
        for key in ("tricks", "revokes"):
            if raw.get(key) is not None:
                problems.append(
                    EngineError(
                        at(place, key),
                        'a deal not played ("je chante") records honours only',
                        "chante_honours_only",
                    )
                )
        if point_table.chante_at is None:
            problems.append(no_chante_error(at(place, "not_played"), point_table))
        if raw.get("honours") is None:
            problems.append(
                EngineError(
                    at(place, "honours"),
                    'a deal not played ("je chante") needs the honours',
                    "chante_needs_honours",
                )
            )
    else:
        teams, tricks = _parse_tricks(raw.get("tricks"), seats, at(place, "tricks"), problems)

    honours = (0, 0)
    raw_honours = raw.get("honours")
    if raw_honours is not None:
        hplace = at(place, "honours")
        if point_table.honours is None:
            problems.append(
                EngineError(
                    hplace,
                    f'point table "{point_table.name}" does not count honours',
                    "honours_not_counted",
                    {"table": point_table.label},
                )
            )
        elif not isinstance(raw_honours, Mapping):
            problems.append(
                EngineError(
                    hplace,
                    f'expected {{"team": [name, name], "count": 3 or 4}}, got {shown(raw_honours)}',
                    "honours_shape",
                    {"got": shown(raw_honours)},
                )
            )
        else:
            team = _team(raw_honours.get("team"), seats, at(hplace, "team"), problems)
            count = raw_honours.get("count")
            if count not in (3, 4) or not is_int(count):
                problems.append(
                    EngineError(
                        at(hplace, "count"),
                        f"expected 3 or 4 trump honours, got {shown(count)}",
                        "honours_count",
                        {"got": shown(count)},
                    )
                )
            elif team is not None:
                if teams is None and not_played:
                    teams = _partition(team)
                side = _side(team, teams, seats, at(hplace, "team"), problems) if teams else None
                if side is not None:
                    honours = (count, 0) if side == 0 else (0, count)

    revokes = [0, 0]
    raw_revokes = raw.get("revokes")
    if raw_revokes is not None and not not_played:
        items = objects_listed(raw_revokes, at(place, "revokes"), problems, _revokes_shape)
        for iplace, item in items:
            team = _team(item.get("team"), seats, at(iplace, "team"), problems)
            count = item.get("count")
            if not is_int(count) or count < 1:
                problems.append(
                    EngineError(
                        at(iplace, "count"),
                        f"expected an integer ≥ 1, got {shown(count)}",
                        "revokes_count",
                        {"got": shown(count)},
                    )
                )
                continue
            if count > MAX_COUNT:
                problems.append(
                    EngineError(
                        at(iplace, "count"),
                        f"expected at most {MAX_COUNT}, got {count}",
                        "too_large",
                        {"maximum": MAX_COUNT, "got": count},
                    )
                )
                continue
            if team is None or teams is None:
                continue
            side = _side(team, teams, seats, at(iplace, "team"), problems)
            if side is not None and revokes[side]:
                problems.append(
                    EngineError(
                        at(iplace, "team"),
                        f"{_names(team, seats)} already has a revokes entry",
                        "revokes_twice",
                        {"players": [seats[s] for s in team]},
                    )
                )
            elif side is not None:
                revokes[side] = count

    if len(problems) != found or teams is None:
        return None
    return Deal(
        teams=teams,
        tricks=tricks,
        honours=honours,
        revokes=(revokes[0], revokes[1]),
        not_played=not_played,
        penalties=penalties,
    )


parse_deal = deal_reader(GAME, DEAL_KEYS, _read)


def _parse_tricks(
    raw: Any, seats: Sequence[str], place: str, problems: list[EngineError]
) -> tuple[tuple[Team, Team] | None, tuple[int, int] | None]:
    if not isinstance(raw, Mapping):
        problems.append(
            EngineError(
                place,
                f'expected {{"team": [name, name], "tricks": 0 … 13}}, got {shown(raw)}',
                "team_tricks_shape",
                {"got": shown(raw)},
            )
        )
        return None, None
    team = _team(raw.get("team"), seats, at(place, "team"), problems)
    count = raw.get("tricks")
    if not is_int(count) or not 0 <= count <= TRICKS:
        problems.append(
            EngineError(
                at(place, "tricks"),
                f"expected the team's tricks, 0 … 13, got {shown(count)}",
                "team_tricks_outside",
                {"got": shown(count)},
            )
        )
        return None, None
    if team is None:
        return None, None
    teams = _partition(team)
    tricks = (count, TRICKS - count) if teams[0] == team else (TRICKS - count, count)
    return teams, tricks
