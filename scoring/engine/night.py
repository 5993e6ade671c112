"""The club-night file (night-format.md): read ``club-night/1``, write ``club-night-result/1``.

A document is refused whole: every problem is collected, each named by its place
(``poules[2].deals[7].tricks: 14 is outside 0..13``), before anything is scored or written.
"""

from __future__ import annotations

import copy
import datetime
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import PouleScore
from .errors import DocumentRefused, EngineError, at, file_error
from .games import GAME_CODES, game_module
from .parsing import shown, table_error
from .standings import (
    PouleResult,
    PouleStanding,
    Scheme,
    TournamentStanding,
    decimal_string,
    poule_standings,
    scheme,
    tournament_standings,
)
from .tables import load_table, preset

INPUT_FORMAT = "club-night/1"
RESULT_FORMAT = "club-night-result/1"
# The club plays 12 deals at a table of 4 and 15 at a table of 5 (Belgian whist); a poule with
# fewer is scored but flagged, since a missing sheet line is the usual cause.
DEFAULT_DEALS_PER_POULE = {4: 12, 5: 15}


@dataclass(frozen=True, slots=True)
class ScoredPoule:
    round: int
    table: int
    seats: tuple[str, ...]
    score: PouleScore
    standings: tuple[PouleStanding, ...]


@dataclass(frozen=True, slots=True)
class ScoredNight:
    club: str
    season: str
    date: datetime.date
    name: str
    game: str
    players: tuple[str, ...]
    poules: tuple[ScoredPoule, ...]
    standings: tuple[TournamentStanding, ...]
    warnings: tuple[str, ...]


def _text(
    doc: Mapping[str, Any], key: str, problems: list[EngineError], required: bool = True
) -> str:
    value = doc.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        problems.append(file_error(key, f"expected a non-empty string, got {shown(value)}"))
        return ""
    return value.strip()


def _positive_int(value: Any, place: str, problems: list[EngineError]) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        problems.append(file_error(place, f"expected an integer ≥ 1, got {shown(value)}"))
        return 0
    return value


def read_table(rules: Any, game: str, place: str = "rules") -> Any:
    """The point table a document names: a preset, or an inline table of the same game."""
    if isinstance(rules, str):
        point_table = preset(rules)
    elif isinstance(rules, Mapping):
        point_table = load_table(rules, place)
    else:
        raise table_error(
            place, f"expected a preset name or a point table object, got {shown(rules)}"
        )
    if point_table.game != game:
        raise table_error(
            place, f'point table "{point_table.name}" is for {point_table.game}, not {game}'
        )
    return point_table


# Where a deal names players (night-format.md, every game): one name, a list of names, or an
# object keyed by name.
NAME_FIELDS = frozenset(
    {"dealer", "player", "queen_of_spades", "revoke", "mixed_tricks", "last_trick"}
)
NAME_LIST_FIELDS = frozenset({"declarers", "team"})
NAME_KEYED_FIELDS = frozenset({"hearts", "declarations", "brisques", "points"})


# Values with no player inside (a count, a contract's name): given back as they are.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def rename_players(value: Any, rename: Callable[[Any], Any], key: str = "") -> Any:
    """A copy of a deal (as the club-night file writes it) with every player reference passed
    through ``rename``: the site stores deals with players named by seat number, the file
    names them. Called for every deal an import stores: a plain value of a field that names
    no player is kept without a call."""
    if value.__class__ in _SCALARS:
        return rename(value) if key in NAME_FIELDS else value
    if isinstance(value, Mapping):
        if key in NAME_KEYED_FIELDS or (key == "tricks" and "team" not in value):
            return {rename(k): rename_players(v, rename) for k, v in value.items()}
        return {
            k: v
            if v.__class__ in _SCALARS and k not in NAME_FIELDS
            else rename_players(v, rename, k)
            for k, v in value.items()
        }
    if isinstance(value, list):
        if key in NAME_LIST_FIELDS:
            return [rename(v) for v in value]
        return [rename_players(v, rename, key) for v in value]
    if key in NAME_FIELDS:
        return rename(value)
    return value


def score_poule_deals(
    point_table: Any, seats: Sequence[str], raw_deals: Sequence[Any]
) -> PouleScore:
    """Parse and score one poule's deals as written in the club-night file.

    This is what the site calls for a score sheet: seats are identifiers in seating order and
    the deals name players by them. Raises ``DocumentRefused`` with every located problem.
    """
    module = game_module(point_table.game)
    seats = tuple(seats)
    problems: list[EngineError] = []
    if len(seats) not in module.PLAYERS:
        sizes = f"{module.PLAYERS.start} to {module.PLAYERS.stop - 1}"
        raise DocumentRefused(
            [
                EngineError(
                    "seats",
                    f"{point_table.game} is played by {sizes} players, not {len(seats)}",
                    "table_size",
                    {
                        "minimum": module.PLAYERS.start,
                        "maximum": module.PLAYERS.stop - 1,
                        "got": len(seats),
                    },
                )
            ]
        )
    deals = [
        module.parse_deal(point_table, raw, seats, f"deals[{index}]", problems)
        for index, raw in enumerate(raw_deals)
    ]
    if problems and not getattr(module, "SCORES_UNREAD_DEALS", False):
        raise DocumentRefused(problems)
    try:
        score = module.score_poule(point_table, len(seats), deals)
    except EngineError as error:
        problems.append(error)
    except DocumentRefused as refused:
        problems.extend(refused.errors)
    if problems:
        # Keep the order of the sheet: a reader fixes deal 2 before deal 7.
        raise DocumentRefused(sorted(problems, key=_deal_order))
    return score


def parse_poule_deals(
    point_table: Any, seats: Sequence[str], raw_deals: Sequence[Any]
) -> list[Any]:
    """One poule's deals as written in the club-night file, checked and parsed into the game's
    ``Deal``\\s (for the functions that take them, e.g. ``whist.poule_progress``). Raises
    ``DocumentRefused`` with every located problem."""
    module = game_module(point_table.game)
    problems: list[EngineError] = []
    deals = [
        module.parse_deal(point_table, raw, tuple(seats), f"deals[{index}]", problems)
        for index, raw in enumerate(raw_deals)
    ]
    if problems:
        raise DocumentRefused(problems)
    return deals


def _deal_order(problem: EngineError) -> tuple[int, str]:
    text = str(problem)
    match = re.match(r"deals\[(\d+)\]", text)
    return (int(match.group(1)) if match else -1, text)


def read_night(doc: Any) -> ScoredNight:
    """Check and score a whole ``club-night/1`` document (a result document is read the same)."""
    if not isinstance(doc, Mapping):
        raise DocumentRefused([file_error("", "a club night must be a JSON object")])
    problems: list[EngineError] = []
    if doc.get("format") not in (INPUT_FORMAT, RESULT_FORMAT):
        problems.append(
            file_error("format", f'expected "{INPUT_FORMAT}", got {shown(doc.get("format"))}')
        )
    club = _text(doc, "club", problems)
    season = _text(doc, "season", problems)
    name = _text(doc, "name", problems, required=False)
    date = None
    try:
        date = datetime.date.fromisoformat(doc.get("date"))
    except (TypeError, ValueError):
        problems.append(
            file_error(
                "date", f"expected an ISO date such as 2024-03-14, got {shown(doc.get('date'))}"
            )
        )
    game = doc.get("game")
    point_table = points_scheme = None
    if game not in GAME_CODES:
        problems.append(
            file_error("game", f"unknown game {shown(game)}; known: {', '.join(GAME_CODES)}")
        )
    else:
        try:
            point_table = read_table(doc.get("rules"), game)
        except EngineError as error:
            problems.append(error)
    try:
        points_scheme = scheme(doc.get("tournament_points", "rcwhist"))
    except EngineError as error:
        problems.append(error)
    players = _read_players(doc.get("players"), problems)
    raw_poules = doc.get("poules")
    if not isinstance(raw_poules, list) or not raw_poules:
        problems.append(file_error("poules", "expected a non-empty list of poules"))
        raw_poules = []

    poules: list[ScoredPoule] = []
    seated: dict[tuple[int, str], str] = {}
    tables_seen: set[tuple[int, int]] = set()
    for index, raw in enumerate(raw_poules):
        place = f"poules[{index}]"
        if not isinstance(raw, Mapping):
            problems.append(file_error(place, "expected an object"))
            continue
        round_no = _positive_int(raw.get("round"), at(place, "round"), problems)
        table_no = _positive_int(raw.get("table"), at(place, "table"), problems)
        if round_no and table_no:
            if (round_no, table_no) in tables_seen:
                problems.append(
                    file_error(place, f"round {round_no} has two tables numbered {table_no}")
                )
            tables_seen.add((round_no, table_no))
        seats = _read_seats(raw.get("seats"), players, round_no, place, seated, problems)
        raw_deals = raw.get("deals")
        if not isinstance(raw_deals, list):
            problems.append(file_error(at(place, "deals"), "expected a list of deals"))
            continue
        if point_table is None or seats is None:
            continue
        if doc.get("format") == RESULT_FORMAT:
            raw_deals = [_as_recorded(deal) for deal in raw_deals]
        try:
            score = score_poule_deals(point_table, seats, raw_deals)
        except DocumentRefused as refused:
            problems.extend(error.moved(place) for error in refused.errors)
            continue
        if points_scheme is not None:
            poules.append(
                ScoredPoule(round_no, table_no, seats, score, poule_standings(score, points_scheme))
            )
    if problems:
        raise DocumentRefused(problems)

    assert date is not None and point_table is not None and isinstance(game, str)
    lower = any(p.score.lower_is_better for p in poules)
    results = [
        PouleResult(
            player=poule.seats[line.seat],
            rank=line.rank,
            game_points=line.game_points,
            tournament_points=line.tournament_points,
        )
        for poule in poules
        for line in poule.standings
    ]
    return ScoredNight(
        club=club,
        season=season,
        date=date,
        name=name,
        game=game,
        players=players,
        poules=tuple(poules),
        standings=tournament_standings(results, lower_game_points_better=lower),
        warnings=tuple(_warnings(game, players, poules)),
    )


# What a result document adds to each deal (its points, computed again when it is read): a
# deal of an input document holds only what its game knows (``DEAL_KEYS`` of each game).
COMPUTED_DEAL_KEYS = frozenset({"points"})


def _as_recorded(deal: Any) -> Any:
    """A deal of a result document as it was recorded: without the points the engine wrote."""
    if not isinstance(deal, Mapping):
        return deal
    return {key: value for key, value in deal.items() if key not in COMPUTED_DEAL_KEYS}


def _read_players(raw: Any, problems: list[EngineError]) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw:
        problems.append(file_error("players", "expected a non-empty list of names"))
        return ()
    names: list[str] = []
    for index, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            problems.append(file_error(f"players[{index}]", f"expected a name, got {shown(name)}"))
        elif name in names:
            problems.append(file_error(f"players[{index}]", f'"{name}" appears twice'))
        else:
            names.append(name)
    return tuple(names)


def _read_seats(
    raw: Any,
    players: tuple[str, ...],
    round_no: int,
    place: str,
    seated: dict[tuple[int, str], str],
    problems: list[EngineError],
) -> tuple[str, ...] | None:
    place = at(place, "seats")
    if not isinstance(raw, list) or not raw:
        problems.append(file_error(place, "expected a list of player names"))
        return None
    found = len(problems)
    for index, name in enumerate(raw):
        if name not in players:
            problems.append(file_error(place, f"{shown(name)} is not in players"))
        elif raw.index(name) != index:
            problems.append(file_error(place, f'"{name}" sits twice at this table'))
        elif round_no:
            other = seated.setdefault((round_no, name), place)
            if other != place:
                problems.append(
                    file_error(place, f'"{name}" already sits at {other} in round {round_no}')
                )
    return tuple(raw) if len(problems) == found else None


def short_poule_warning(
    round_no: int,
    table: int,
    seats: int,
    counted_deals: int,
    deals_per_poule: Mapping[int, int] = DEFAULT_DEALS_PER_POULE,
) -> str | None:
    """The warning for a poule with fewer deals than the club plays at a table of its size."""
    expected = deals_per_poule.get(seats)
    if expected is None or counted_deals >= expected:
        return None
    return (
        f"round {round_no}, table {table}: {counted_deals} deals played, "
        f"the club plays {expected} at a table of {seats}"
    )


def short_poule_warnings(
    game: str,
    poules: Sequence[tuple[int, int, int, int]],
    deals_per_poule: Mapping[int, int] = DEFAULT_DEALS_PER_POULE,
) -> list[str]:
    """Warnings for the poules (round, table, seats, counted deals) that played fewer deals
    than the club plays, in a game played to a set number of deals per poule."""
    if not game_module(game).FIXED_DEALS_PER_POULE:
        return []
    warnings = (short_poule_warning(*poule, deals_per_poule) for poule in poules)
    return [warning for warning in warnings if warning]


def _warnings(game: str, players: tuple[str, ...], poules: list[ScoredPoule]) -> list[str]:
    warnings = [
        f"round {poule.round}, table {poule.table}: {warning}"
        for poule in poules
        for warning in poule.score.warnings
    ]
    warnings += short_poule_warnings(
        game,
        [(p.round, p.table, len(p.seats), p.score.counted_deals) for p in poules],
    )
    rounds = sorted({p.round for p in poules})
    for round_no in rounds:
        present = {name for p in poules if p.round == round_no for name in p.seats}
        for name in players:
            if name not in present:
                warnings.append(f'round {round_no}: "{name}" plays at no table')
    return warnings


# --------------------------------------------------------------------------------------------
# Writing results


def poule_standings_document(poule: ScoredPoule) -> list[dict[str, Any]]:
    return [
        {
            "player": poule.seats[line.seat],
            "rank": line.rank,
            "tied": line.tied,
            "game_points": line.game_points,
            "tournament_points": decimal_string(line.tournament_points),
        }
        for line in poule.standings
    ]


def result_document(doc: Mapping[str, Any], night: ScoredNight) -> dict[str, Any]:
    """The input document enriched with points and standings (``club-night-result/1``)."""
    result = copy.deepcopy(dict(doc))
    result["format"] = RESULT_FORMAT
    for raw_poule, poule in zip(result["poules"], night.poules, strict=True):
        for raw_deal, points, dealer in zip(
            raw_poule["deals"], poule.score.deal_points, poule.score.dealers, strict=True
        ):
            raw_deal["points"] = dict(zip(poule.seats, points, strict=True))
            raw_deal["dealer"] = poule.seats[dealer] if dealer is not None else None
        raw_poule["standings"] = poule_standings_document(poule)
    result["standings"] = [
        {
            "player": line.player,
            "rank": line.rank,
            "tied": line.tied,
            "tournament_points": decimal_string(line.tournament_points),
            "game_points": line.game_points,
            "poules_played": line.poules_played,
            "poules_won": line.poules_won,
        }
        for line in night.standings
    ]
    result["warnings"] = list(night.warnings)
    return result


def score_night_document(doc: Any) -> dict[str, Any]:
    """``club-night/1`` in, ``club-night-result/1`` out; ``DocumentRefused`` for a bad document."""
    return result_document(doc, read_night(doc))


__all__ = [
    "Scheme",
    "parse_poule_deals",
    "read_night",
    "score_night_document",
    "score_poule_deals",
]
